/**
 * Duplicate-delivery protection, transport- and database-neutral: the service kit provides the
 * implementation on the service's own database (`ProcessedMessages` in '@medfolio/messaging/outbox'),
 * the bus and the event handlers only see this shape.
 */

/**
 * Runs `work` in one transaction with the record "this consumer applied this message", unless that
 * record exists already (a redelivery). Resolves true if the work ran. A `work` that throws rolls the
 * record back with its own changes, so the retry runs it again. `Tx` is the transaction's handle
 * (TypeORM's EntityManager in the services).
 */
export type Once<Tx = unknown> = (work: (tx: Tx) => Promise<unknown>) => Promise<boolean>;

/** The kit's record of processed messages, per consumer. */
export interface ProcessedMessageLog<Tx = unknown> {
  once(consumer: string, messageId: string, work: (tx: Tx) => Promise<unknown>): Promise<boolean>;
}

/** Nest injection token of the service's ProcessedMessageLog (given by the service kit). */
export const PROCESSED_MESSAGES = Symbol('PROCESSED_MESSAGES');
