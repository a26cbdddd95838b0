import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';
import type { EmailState } from '../entities/email-message.entity';

export interface NewEmail {
  id: string;
  template: string;
  sealed: Buffer;
  idempotencyHash: string | null;
}

export interface NewContactMessage {
  id: string;
  sealed: Buffer;
  priority?: boolean;
  accountId?: string | null;
}

/** A row the sender has claimed (state 'sending', leased to it). */
export interface ClaimedEmail {
  id: string;
  template: string;
  sealed: Buffer;
  /** Attempts before this one. */
  attempts: number;
  createdAt: Date;
}

export interface SentEmail {
  id: string;
  sealed: Buffer;
  sentAt: Date;
}

export interface EmailStatus {
  state: EmailState;
  attempts: number;
  lastError: string | null;
}

/** Rows changed per housekeeping statement. */
const BATCH = 2000;

/** The only database I/O of notifications: the email_messages and contact_messages tables. */
@Injectable()
export class MailRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  private get emails(): string {
    return `"${schemaOf(this.dataSource)}"."email_messages"`;
  }

  private get contacts(): string {
    return `"${schemaOf(this.dataSource)}"."contact_messages"`;
  }

  /**
   * Queues an e-mail, due now. With an idempotency hash already queued, nothing is added and the
   * earlier message's id is returned (`created: false`).
   */
  enqueue(email: NewEmail): Promise<{ id: string; created: boolean }> {
    return this.dataSource.transaction((manager) => this.insertEmail(manager, email));
  }

  /** Stores a contact-form message and queues its e-mail to support, in one transaction. */
  async enqueueContact(contact: NewContactMessage, email: NewEmail): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await this.insertEmail(manager, email);
      await manager.query(`INSERT INTO ${this.contacts} (id, sealed, email_message_id, priority, account_id) VALUES ($1, $2, $3, $4, $5)`, [
        contact.id,
        contact.sealed,
        email.id,
        contact.priority ?? false,
        contact.accountId ?? null,
      ]);
    });
  }

  private async insertEmail(manager: EntityManager, email: NewEmail): Promise<{ id: string; created: boolean }> {
    const inserted: { id: string }[] = await manager.query(
      `INSERT INTO ${this.emails} (id, template, state, sealed, idempotency_hash, next_attempt_at)
       VALUES ($1, $2, 'queued', $3, $4, now())
       ON CONFLICT (idempotency_hash) DO NOTHING
       RETURNING id`,
      [email.id, email.template, email.sealed, email.idempotencyHash],
    );
    const [created] = inserted;
    if (created) return { id: created.id, created: true };
    const [existing] = (await manager.query(`SELECT id FROM ${this.emails} WHERE idempotency_hash = $1`, [email.idempotencyHash])) as { id: string }[];
    if (!existing) throw new Error('An idempotency conflict without the conflicting row');
    return { id: existing.id, created: false };
  }

  /**
   * Claims up to `limit` due messages for one sender: rows other senders hold are skipped
   * (FOR UPDATE SKIP LOCKED), the claimed ones become 'sending' with a lease of `leaseMs`. A
   * 'sending' row whose lease ran out (its sender died) is due again.
   */
  async claimDue(limit: number, leaseMs: number): Promise<ClaimedEmail[]> {
    const rows = await this.updateReturning<{ id: string; template: string; sealed: Buffer; attempts: number; created_at: Date }>(
      `UPDATE ${this.emails} SET state = 'sending', next_attempt_at = now() + $2::integer * interval '1 millisecond', updated_at = now()
       WHERE id IN (
         SELECT id FROM ${this.emails}
         WHERE state IN ('queued', 'retrying', 'sending') AND next_attempt_at <= now()
         ORDER BY next_attempt_at
         LIMIT $1
         FOR UPDATE SKIP LOCKED)
       RETURNING id, template, sealed, attempts, created_at`,
      [limit, leaseMs],
    );
    return rows
      .map((r) => ({ id: r.id, template: r.template, sealed: r.sealed, attempts: r.attempts, createdAt: r.created_at }))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  }

  /** UPDATE ... RETURNING rows (TypeORM's plain `query()` answers an UPDATE with [rows, count]). */
  private async updateReturning<T>(sql: string, parameters: unknown[]): Promise<T[]> {
    const runner = this.dataSource.createQueryRunner();
    try {
      return ((await runner.query(sql, parameters, true)) as { records: T[] }).records;
    } finally {
      await runner.release();
    }
  }

  async markSent(id: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE ${this.emails} SET state = 'sent', attempts = attempts + 1, last_error = NULL, sent_at = now(), updated_at = now()
       WHERE id = $1 AND state = 'sending'`,
      [id],
    );
  }

  /** Records a failed attempt: 'retrying' again after `delayMs`, or 'failed' for good. */
  async markAttemptFailed(id: string, outcome: { state: 'retrying'; delayMs: number } | { state: 'failed' }, error: string): Promise<void> {
    const delayMs = outcome.state === 'retrying' ? outcome.delayMs : 0;
    await this.dataSource.query(
      `UPDATE ${this.emails}
       SET state = $2::text, attempts = attempts + 1, last_error = $3, updated_at = now(),
           next_attempt_at = CASE WHEN $2::text = 'retrying' THEN now() + $4::integer * interval '1 millisecond' ELSE next_attempt_at END
       WHERE id = $1 AND state = 'sending'`,
      [id, outcome.state, error, delayMs],
    );
  }

  /** Gives claimed rows back unattempted (the server is down, or the sender is stopping), due after `delayMs`. */
  async release(ids: string[], delayMs: number): Promise<void> {
    if (ids.length === 0) return;
    await this.dataSource.query(
      `UPDATE ${this.emails}
       SET state = CASE WHEN attempts = 0 THEN 'queued' ELSE 'retrying' END,
           next_attempt_at = now() + $2::integer * interval '1 millisecond', updated_at = now()
       WHERE id = ANY($1::uuid[]) AND state = 'sending'`,
      [ids, delayMs],
    );
  }

  /** Sent messages whose body is still kept, newest first (the dev mailbox). */
  async listSent(limit: number): Promise<SentEmail[]> {
    const rows: { id: string; sealed: Buffer; sent_at: Date }[] = await this.dataSource.query(
      `SELECT id, sealed, sent_at FROM ${this.emails} WHERE state = 'sent' AND octet_length(sealed) > 0 ORDER BY sent_at DESC, created_at DESC LIMIT $1`,
      [limit],
    );
    return rows.map((r) => ({ id: r.id, sealed: r.sealed, sentAt: r.sent_at }));
  }

  /**
   * Housekeeping: erases the sealed envelope (recipient, subject, bodies) of messages delivered or
   * given up ('sent', 'failed') before `before`. The row stays, without anything personal, so its
   * idempotency key still stops a redelivered event from sending the message again.
   */
  async eraseFinishedBodies(before: Date): Promise<number> {
    return this.inBatches(
      `UPDATE ${this.emails} SET sealed = ''::bytea
       WHERE id IN (SELECT id FROM ${this.emails} WHERE state IN ('sent', 'failed') AND updated_at < $1 AND octet_length(sealed) > 0 LIMIT ${BATCH})`,
      before,
    );
  }

  /** Housekeeping: deletes the erased rows last changed before `before` (their idempotency keys have served). */
  async deleteErased(before: Date): Promise<number> {
    return this.inBatches(
      `DELETE FROM ${this.emails}
       WHERE id IN (SELECT id FROM ${this.emails} WHERE state IN ('sent', 'failed') AND updated_at < $1 AND octet_length(sealed) = 0 LIMIT ${BATCH})`,
      before,
    );
  }

  private async inBatches(sql: string, before: Date): Promise<number> {
    let total = 0;
    for (;;) {
      const [, count] = (await this.dataSource.query(sql, [before])) as [unknown, number];
      total += count;
      if (count < BATCH) return total;
    }
  }

  async status(id: string): Promise<EmailStatus | null> {
    const [row] = (await this.dataSource.query(`SELECT state, attempts, last_error FROM ${this.emails} WHERE id = $1`, [id])) as {
      state: EmailState;
      attempts: number;
      last_error: string | null;
    }[];
    return row ? { state: row.state, attempts: row.attempts, lastError: row.last_error } : null;
  }
}
