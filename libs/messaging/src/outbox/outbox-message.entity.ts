import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { Headers } from '../events/event-bus';

/**
 * An event waiting to be published: written in the same transaction as the change it
 * describes (see `Outbox.add`), published afterwards by the `OutboxRelay`.
 * No schema here: each service's DataSource sets its own, so the table lands in every
 * service's schema. Migration: CreateOutboxTables.
 */
@Entity('outbox')
@Index('outbox_unpublished_idx', ['createdAt'], { where: '"published_at" IS NULL' })
export class OutboxMessage {
  /** Also the published message's msgId, so JetStream drops a re-publish after a relay crash. */
  @PrimaryColumn({ type: 'uuid', default: () => 'gen_random_uuid()', primaryKeyConstraintName: 'outbox_pkey' })
  id!: string;

  @Column({ type: 'text' })
  subject!: string;

  /** The event's data: any JSON value. */
  @Column({ type: 'jsonb' })
  payload!: object | string | number | boolean | null;

  @Column({ type: 'jsonb', default: () => "'{}'::jsonb" })
  headers!: Headers;

  /** clock_timestamp(), not now(): rows added in one transaction keep their order. */
  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'clock_timestamp()' })
  createdAt!: Date;

  @Column({ name: 'published_at', type: 'timestamptz', nullable: true })
  publishedAt!: Date | null;

  /** Publish attempts so far (successful one included). */
  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;
}
