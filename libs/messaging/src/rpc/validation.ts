import { BadRequestException, ValidationPipe } from '@nestjs/common';
import type { ValidationError } from 'class-validator';

/** A missing value says so before any rule about its length or format does. */
const PRIORITY = ['isDefined', 'isNotEmpty', 'isString', 'isInt', 'isBoolean', 'isIn', 'matches', 'isEmail'];

function firstMessage(error: ValidationError): string | undefined {
  const constraints = error.constraints ?? {};
  const key = PRIORITY.find((k) => k in constraints) ?? Object.keys(constraints)[0];
  if (key) return constraints[key];
  for (const child of error.children ?? []) {
    const message = firstMessage(child);
    if (message) return message;
  }
  return undefined;
}

/**
 * The validation pipe of the gateway and of every service: the DTO's own messages, one per field in
 * field order, the most basic problem first; the first one is the answer's `message`.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    exceptionFactory: (errors: ValidationError[]) =>
      new BadRequestException({ message: errors.map(firstMessage).filter((m): m is string => !!m), error: 'Bad Request' }),
  });
}
