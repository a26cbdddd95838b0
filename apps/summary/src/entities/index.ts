import { SummaryItem } from './summary-item.entity';

export { SummaryItem };

/** Every entity of the service's schema (add OutboxMessage and ProcessedMessage from @medfolio/messaging with the outbox). */
export const SUMMARY_ENTITIES = [SummaryItem];
