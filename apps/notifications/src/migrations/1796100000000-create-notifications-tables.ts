import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';

/** Outgoing e-mails with their delivery state, and contact-form messages; contents encrypted (bytea). */
export class CreateNotificationsTables1796100000000 implements MigrationInterface {
  name = 'CreateNotificationsTables1796100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const schema = schemaOf(queryRunner.connection);
    await queryRunner.query(`
      CREATE TABLE "${schema}"."email_messages" (
        id uuid PRIMARY KEY,
        template text NOT NULL,
        state text NOT NULL CHECK (state IN ('queued', 'sending', 'sent', 'retrying', 'failed')),
        sealed bytea NOT NULL,
        idempotency_hash char(64) UNIQUE,
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        next_attempt_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        sent_at timestamptz
      )`);
    // The sender's query: due rows among the undelivered ones. Sent and failed rows stay out of it.
    await queryRunner.query(`
      CREATE INDEX email_messages_due_idx ON "${schema}"."email_messages" (next_attempt_at)
      WHERE state IN ('queued', 'retrying', 'sending')`);
    // The dev mailbox's query: sent mail, newest first.
    await queryRunner.query(`
      CREATE INDEX email_messages_sent_idx ON "${schema}"."email_messages" (sent_at DESC) WHERE state = 'sent'`);
    await queryRunner.query(`
      CREATE TABLE "${schema}"."contact_messages" (
        id uuid PRIMARY KEY,
        sealed bytea NOT NULL,
        email_message_id uuid NOT NULL REFERENCES "${schema}"."email_messages" (id),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const schema = schemaOf(queryRunner.connection);
    await queryRunner.query(`DROP TABLE "${schema}"."contact_messages"`);
    await queryRunner.query(`DROP TABLE "${schema}"."email_messages"`);
  }
}
