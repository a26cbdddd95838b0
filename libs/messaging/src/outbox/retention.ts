import type { DataSource } from 'typeorm';
import { DEFAULTS } from '../events/delivery-policy';
import { OutboxMessage } from './outbox-message.entity';
import { ProcessedMessage } from './processed-message.entity';

/** Rows deleted per statement, so a large backlog never holds long locks or one huge transaction. */
const BATCH = 5000;

/**
 * The longest a stream may deliver one message again while its consumer runs, with the shared
 * delivery policy: the duplicate window (a relay that crashed between publish and commit publishes
 * again) plus every delivery's ack wait and backoff. 120 s + 5 × (30 s + 30 s) = 7 minutes.
 */
export const REDELIVERY_WINDOW_MS = DEFAULTS.duplicateWindowMs + DEFAULTS.maxDeliver * (DEFAULTS.ackWaitMs + Math.max(...DEFAULTS.backoffMs));

/**
 * Processed-message ids are never pruned younger than this, whatever the setting: a message can
 * come back only within the redelivery window while its consumer runs, but a consumer (or a relay)
 * that is down holds its unacknowledged messages until it returns, so the bound that matters is
 * how long a service may stay down. One day is the floor; the default setting is 30 days.
 */
export const PROCESSED_MESSAGES_MIN_RETENTION_MS = Math.max(REDELIVERY_WINDOW_MS, 24 * 3_600_000);

async function deleteInBatches(dataSource: DataSource, table: string, where: string, parameters: unknown[], key: string): Promise<number> {
  let total = 0;
  for (;;) {
    const [, count] = (await dataSource.query(
      `DELETE FROM ${table} WHERE (${key}) IN (SELECT ${key} FROM ${table} WHERE ${where} LIMIT ${BATCH})`,
      parameters,
    )) as [unknown, number];
    total += count;
    if (count < BATCH) return total;
  }
}

function tableOf(dataSource: DataSource, entity: typeof OutboxMessage | typeof ProcessedMessage): string {
  const metadata = dataSource.getMetadata(entity);
  return metadata.schema ? `"${metadata.schema}"."${metadata.tableName}"` : `"${metadata.tableName}"`;
}

/** Deletes outbox rows published before `before`. Unpublished rows are never deleted, however old. */
export function pruneOutbox(dataSource: DataSource, before: Date): Promise<number> {
  return deleteInBatches(dataSource, tableOf(dataSource, OutboxMessage), 'published_at IS NOT NULL AND published_at < $1', [before], 'id');
}

/**
 * Deletes processed-message ids recorded before `before`, but never any younger than
 * PROCESSED_MESSAGES_MIN_RETENTION_MS (a redelivered message must still find its id).
 */
export function pruneProcessedMessages(dataSource: DataSource, before: Date, now = new Date()): Promise<number> {
  const floor = new Date(now.getTime() - PROCESSED_MESSAGES_MIN_RETENTION_MS);
  const cutoff = before < floor ? before : floor;
  return deleteInBatches(dataSource, tableOf(dataSource, ProcessedMessage), 'processed_at < $1', [cutoff], 'consumer, message_id');
}
