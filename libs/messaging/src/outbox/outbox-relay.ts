import { Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { EventBus } from '../events/event-bus';
import { OutboxMessage } from './outbox-message.entity';
import { PollingLoop } from './polling-loop';

export interface OutboxRelayOptions {
  /** How often to look for unpublished rows when nobody kicks. Default 1000 ms. */
  intervalMs?: number;
  /** Rows claimed per transaction. Default 100. */
  batchSize?: number;
}

/**
 * Publishes the outbox: claims the oldest unpublished rows with `FOR UPDATE SKIP LOCKED`,
 * publishes each with msgId = row id, and marks it published, all in one transaction.
 *
 * - Replicas: each row is locked by one relay at a time, so relays running side by side do not
 *   publish the same row twice. (Rows claimed by different replicas may go out interleaved.)
 * - Crashes: if the relay dies after publishing but before its commit, the rows stay
 *   unpublished and are published again with the same msgId; JetStream's duplicate window
 *   stores them once.
 * - Failures: a failed publish records `attempts` and `last_error` and ends the pass, so the
 *   rows behind it wait and keep their order; the next pass starts again from that row.
 *
 * Implements Nest's lifecycle hooks, so providing it is enough to run it with the application.
 */
export class OutboxRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(OutboxRelay.name);
  private readonly intervalMs: number;
  private readonly batchSize: number;
  private readonly loop: PollingLoop;

  constructor(
    private readonly dataSource: DataSource,
    private readonly bus: EventBus,
    options: OutboxRelayOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 1000;
    this.batchSize = options.batchSize ?? 100;
    this.loop = new PollingLoop(() => this.drain(), this.intervalMs);
  }

  /** Starts polling, with a first pass right away (rows left over from before a restart). */
  start(): void {
    this.loop.start();
  }

  /** Publish soon: call it after committing a transaction that added outbox rows. */
  kick(): void {
    this.loop.kick();
  }

  /** Stops polling and waits for the pass in progress to commit. */
  async stop(): Promise<void> {
    await this.loop.stop();
  }

  onApplicationBootstrap(): void {
    this.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.stop();
  }

  /**
   * One batch: claims up to `batchSize` unpublished rows and publishes them in order.
   * Returns how many were published. Exposed for tests and one-off tools.
   */
  publishBatch(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const rows = await manager
        .getRepository(OutboxMessage)
        .createQueryBuilder('outbox')
        .where('outbox.publishedAt IS NULL')
        .orderBy('outbox.createdAt', 'ASC')
        .limit(this.batchSize)
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked')
        .getMany();
      let published = 0;
      for (const row of rows) {
        try {
          await this.bus.publish(row.subject, row.payload, { msgId: row.id, headers: row.headers });
        } catch (err) {
          const error = err instanceof Error ? err.message : String(err);
          await manager.update(OutboxMessage, { id: row.id }, { attempts: () => 'attempts + 1', lastError: error });
          this.logger.warn(
            `Publishing outbox row ${row.id} (${row.subject}) failed, attempt ${row.attempts + 1}: ${error}`,
          );
          break;
        }
        await manager.update(
          OutboxMessage,
          { id: row.id },
          { publishedAt: () => 'clock_timestamp()', attempts: () => 'attempts + 1', lastError: null },
        );
        published++;
      }
      return published;
    });
  }

  /** Batches until one comes back short (all caught up, or a publish failed). */
  private async drain(): Promise<void> {
    try {
      let published: number;
      do {
        published = await this.publishBatch();
      } while (this.loop.isRunning && published === this.batchSize);
    } catch (err) {
      this.logger.error(`Outbox pass failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
