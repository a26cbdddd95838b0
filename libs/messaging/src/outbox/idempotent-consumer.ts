import type { DataSource, EntityManager } from 'typeorm';
import type { EventEnvelope, EventHandlerFn } from '../events/event-bus';
import { ProcessedMessage } from './processed-message.entity';

/** A handler whose database changes go through `manager`, the transaction of the dedup row. */
export type TransactionalHandler<T = unknown> = (event: EventEnvelope<T>, manager: EntityManager) => Promise<void>;

/**
 * Exactly-once effects on top of at-least-once delivery: in ONE transaction, records
 * (consumer, message id) in `processed_messages` and runs the handler. A redelivery finds the
 * row and is skipped; a handler that throws rolls the row back with its changes, so the retry
 * runs it again. Two deliveries racing on the same message serialize on the row's primary key.
 *
 * @example
 *   private readonly once = new IdempotentConsumer(dataSource, 'billing-invoicer');
 *
 *   @OnEvent({ stream: 'DOCUMENTS', durable: 'billing-invoicer', subjects: [...] })
 *   handle(event: EventEnvelope<Uploaded>): Promise<void> {
 *     return this.once.handle(event, (manager) => manager.insert(Invoice, { ... }));
 *   }
 */
export class IdempotentConsumer {
  /** @param consumer the consuming service's durable name, e.g. 'billing-invoicer'. */
  constructor(
    private readonly dataSource: DataSource,
    readonly consumer: string,
  ) {}

  /** Runs `work` unless this event was already processed. Resolves true if it ran. */
  handle(event: Pick<EventEnvelope, 'id'>, work: (manager: EntityManager) => Promise<unknown>): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const result = await manager
        .createQueryBuilder()
        .insert()
        .into(ProcessedMessage)
        .values({ consumer: this.consumer, messageId: event.id })
        .orIgnore()
        .returning(['message_id'])
        .execute();
      const firstTime = Array.isArray(result.raw) && result.raw.length === 1;
      if (firstTime) await work(manager);
      return firstTime;
    });
  }

  /** The same, as an EventHandlerFn to pass to `EventBus.consume`. */
  wrap<T>(handler: TransactionalHandler<T>): EventHandlerFn<T> {
    return async (event) => {
      await this.handle(event, (manager) => handler(event, manager));
    };
  }
}
