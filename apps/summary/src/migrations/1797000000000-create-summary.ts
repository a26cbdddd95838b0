import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';

export class CreateSummary1797000000000 implements MigrationInterface {
  name = 'CreateSummary1797000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    await queryRunner.query(`
      CREATE TABLE ${s}.documents (
        document_id uuid PRIMARY KEY,
        user_id text NOT NULL,
        filename text NOT NULL DEFAULT '',
        content_type text NOT NULL,
        uploaded_at timestamptz NOT NULL,
        state text NOT NULL CHECK (state IN ('pending', 'processing', 'read', 'unreadable', 'deleted')),
        problems jsonb NOT NULL DEFAULT '[]',
        facts jsonb NOT NULL DEFAULT '[]',
        none_known jsonb NOT NULL DEFAULT '[]',
        document_date text,
        claimed_until timestamptz,
        attempts int NOT NULL DEFAULT 0
      )`);
    await queryRunner.query(`CREATE INDEX documents_user_idx ON ${s}.documents (user_id, uploaded_at)`);
    await queryRunner.query(
      `CREATE INDEX documents_work_idx ON ${s}.documents (uploaded_at) WHERE state IN ('pending', 'processing')`,
    );
    await queryRunner.query(`
      CREATE TABLE ${s}.pages (
        document_id uuid NOT NULL REFERENCES ${s}.documents (document_id) ON DELETE CASCADE,
        seq int NOT NULL,
        filename text NOT NULL,
        page int,
        text text NOT NULL,
        ocr boolean NOT NULL,
        confidence real,
        PRIMARY KEY (document_id, seq)
      )`);
    await queryRunner.query(`
      CREATE TABLE ${s}.patients (
        user_id text PRIMARY KEY,
        rebuild_due_at timestamptz,
        latest_version int NOT NULL DEFAULT 0,
        confirmed_version int
      )`);
    await queryRunner.query(`CREATE INDEX patients_due_idx ON ${s}.patients (rebuild_due_at) WHERE rebuild_due_at IS NOT NULL`);
    await queryRunner.query(`
      CREATE TABLE ${s}.versions (
        user_id text NOT NULL,
        version int NOT NULL CHECK (version > 0),
        engine text NOT NULL,
        engine_output jsonb NOT NULL,
        sections jsonb NOT NULL,
        text text NOT NULL,
        built_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, version)
      )`);
    await queryRunner.query(`
      CREATE TABLE ${s}.fact_overrides (
        user_id text NOT NULL,
        fact_id uuid NOT NULL,
        section text NOT NULL CHECK (section IN ('current_conditions', 'past_history', 'medications', 'allergies', 'additional')),
        added boolean NOT NULL,
        hidden boolean NOT NULL DEFAULT false,
        text text CHECK (text IS NULL OR char_length(text) BETWEEN 1 AND 300),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, fact_id)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    for (const table of ['fact_overrides', 'versions', 'patients', 'pages', 'documents'])
      await queryRunner.query(`DROP TABLE ${s}.${table}`);
  }
}
