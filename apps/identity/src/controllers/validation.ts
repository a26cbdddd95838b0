import { createValidationPipe } from '@medfolio/messaging';

/** Payload validation for every handler: the contract DTO's rules and messages, unknown fields dropped. */
export const validated = createValidationPipe();
