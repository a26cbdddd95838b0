import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * "Consumer X has applied message Y": the row ProcessedMessages inserts in the same
 * transaction as the handler's changes, so a redelivered event has exactly one effect.
 * No schema here (see OutboxMessage). Migration: CreateOutboxTables.
 */
@Entity('processed_messages')
export class ProcessedMessage {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'processed_messages_pkey' })
  consumer!: string;

  @PrimaryColumn({ name: 'message_id', type: 'text', primaryKeyConstraintName: 'processed_messages_pkey' })
  messageId!: string;

  @Column({ name: 'processed_at', type: 'timestamptz', default: () => 'now()' })
  processedAt!: Date;
}
