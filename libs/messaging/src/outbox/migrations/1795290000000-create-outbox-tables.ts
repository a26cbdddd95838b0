import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The `outbox` and `processed_messages` tables (OutboxMessage, ProcessedMessage) in the
 * schema of the DataSource running it, so every service includes this same class among its
 * migrations. gen_random_uuid() is built into Postgres 13+ and PGlite: no extension needed.
 */
export class CreateOutboxTables1795290000000 implements MigrationInterface {
  name = 'CreateOutboxTables1795290000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const schema = schemaPrefix(queryRunner);
    await queryRunner.query(`
      CREATE TABLE ${schema}"outbox" (
        "id" uuid NOT NULL DEFAULT gen_random_uuid(),
        "subject" text NOT NULL,
        "payload" jsonb NOT NULL,
        "headers" jsonb NOT NULL DEFAULT '{}'::jsonb,
        "created_at" timestamptz NOT NULL DEFAULT clock_timestamp(),
        "published_at" timestamptz,
        "attempts" integer NOT NULL DEFAULT 0,
        "last_error" text,
        CONSTRAINT "outbox_pkey" PRIMARY KEY ("id")
      )`);
    // The relay's query: the oldest unpublished rows. Published rows stay out of the index.
    await queryRunner.query(
      `CREATE INDEX "outbox_unpublished_idx" ON ${schema}"outbox" ("created_at") WHERE "published_at" IS NULL`,
    );
    await queryRunner.query(`
      CREATE TABLE ${schema}"processed_messages" (
        "consumer" text NOT NULL,
        "message_id" text NOT NULL,
        "processed_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "processed_messages_pkey" PRIMARY KEY ("consumer", "message_id")
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const schema = schemaPrefix(queryRunner);
    await queryRunner.query(`DROP TABLE ${schema}"processed_messages"`);
    await queryRunner.query(`DROP TABLE ${schema}"outbox"`);
  }
}

/** `"<schema>".` from the DataSource options, or nothing (the search_path decides). */
function schemaPrefix(queryRunner: QueryRunner): string {
  const { schema } = queryRunner.connection.options as { schema?: string };
  return schema ? `"${schema.replace(/"/g, '""')}".` : '';
}
