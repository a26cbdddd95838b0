import { Column, Entity, PrimaryColumn } from 'typeorm';

export const EMAIL_STATES = ['queued', 'sending', 'sent', 'retrying', 'failed'] as const;
export type EmailState = (typeof EMAIL_STATES)[number];

/**
 * One outgoing e-mail and its delivery state. Everything personal (recipient, subject, both
 * bodies) is in `sealed`, encrypted (services/message-cipher.ts); the clear columns say only
 * which template, what state, and when.
 *
 * States: queued → sending → sent; a failed attempt → retrying (→ sending again at
 * `next_attempt_at`) or failed (refused for good, or undelivered too long). While `sending`,
 * `next_attempt_at` is the claim's lease: a sender that died mid-way leaves the row to be
 * claimed again once it passes. Indexes: see the migration.
 */
@Entity('email_messages')
export class EmailMessage {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ type: 'text' })
  template!: string;

  @Column({ type: 'text' })
  state!: EmailState;

  /** { to, replyTo?, subject, text, html }, sealed with the row id as context. */
  @Column({ type: 'bytea' })
  sealed!: Buffer;

  /** SHA-256 of the sender's idempotency key (the key itself may name a user): same key, same message. */
  @Column({ name: 'idempotency_hash', type: 'char', length: 64, nullable: true, unique: true })
  idempotencyHash!: string | null;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  /** The last failure, e-mail addresses removed. */
  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  @Column({ name: 'next_attempt_at', type: 'timestamptz' })
  nextAttemptAt!: Date;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'sent_at', type: 'timestamptz', nullable: true })
  sentAt!: Date | null;
}
