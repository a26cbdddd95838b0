import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';

export class CreateDocuments1796500000000 implements MigrationInterface {
  name = 'CreateDocuments1796500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    await queryRunner.query(`
      CREATE TABLE ${s}.documents (
        id uuid PRIMARY KEY,
        owner_id text NOT NULL,
        filename text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('pdf', 'jpeg', 'png', 'doc', 'docx', 'zip')),
        content_type text NOT NULL,
        size bigint NOT NULL CHECK (size >= 0),
        sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
        storage_key text NOT NULL UNIQUE,
        thumbnail_key text,
        uploaded_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz
      )`);
    await queryRunner.query(
      `CREATE INDEX documents_owner_idx ON ${s}.documents (owner_id, uploaded_at) WHERE deleted_at IS NULL`,
    );
    await queryRunner.query(`
      CREATE TABLE ${s}.entitlements (
        owner_id text PRIMARY KEY,
        plan text NOT NULL CHECK (plan IN ('free', 'basic', 'standard', 'plus', 'pro')),
        changed_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE ${s}.unfinished_uploads (
        storage_key text PRIMARY KEY,
        started_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX unfinished_uploads_started_idx ON ${s}.unfinished_uploads (started_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    for (const table of ['unfinished_uploads', 'entitlements', 'documents'])
      await queryRunner.query(`DROP TABLE ${s}.${table}`);
  }
}
