import type { DataSource, EntityManager } from 'typeorm';
import type { Once, ProcessedMessageLog } from '../events/once';
import { ProcessedMessage } from './processed-message.entity';

/** What an `@OnEvent({ once: true })` handler receives in a service: its work runs in this EntityManager. */
export type OnceInTransaction = Once<EntityManager>;

/**
 * Exactly-once effects on top of at-least-once delivery, on the service's own database: in ONE
 * transaction, records (consumer, message id) in `processed_messages` and runs the work. A
 * redelivery finds the row and is skipped; work that throws rolls the row back with its changes,
 * so the retry runs it again. Two deliveries racing on the same message serialize on the row's
 * primary key.
 *
 * The service kit provides one per service (PROCESSED_MESSAGES, and this class as a token): event
 * handlers declare `@OnEvent({ ..., once: true })` and get a `Once` bound to their durable name; a
 * message that is not a bus event (Stripe's webhook) calls `once` with its own consumer name.
 */
export class ProcessedMessages implements ProcessedMessageLog<EntityManager> {
  constructor(private readonly dataSource: DataSource) {}

  /** Runs `work` unless `consumer` already processed `messageId`. Resolves true if it ran. */
  once(consumer: string, messageId: string, work: (manager: EntityManager) => Promise<unknown>): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const result = await manager
        .createQueryBuilder()
        .insert()
        .into(ProcessedMessage)
        .values({ consumer, messageId })
        .orIgnore()
        .returning(['message_id'])
        .execute();
      const firstTime = Array.isArray(result.raw) && result.raw.length === 1;
      if (firstTime) await work(manager);
      return firstTime;
    });
  }
}
