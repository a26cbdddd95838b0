import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';

/**
 * Health trends (issue 31): each document's lab results and vital signs as data (observations), the
 * trends a share link shares, the plan projection that gates them (entitlements, fed by billing's events as in documents), and on
 * each document whether its observations were read (documents read before this migration are read
 * again for them by the backfill at start-up; PDFs' come from the next rebuild's facts).
 */
export class CreateObservations1797000000005 implements MigrationInterface {
  name = 'CreateObservations1797000000005';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    await queryRunner.query(`
      CREATE TABLE ${s}.observations (
        document_id uuid NOT NULL,
        origin text NOT NULL CHECK (origin IN ('record', 'facts')),
        seq int NOT NULL,
        user_id text NOT NULL,
        observation jsonb NOT NULL,
        PRIMARY KEY (document_id, origin, seq)
      )`);
    await queryRunner.query(`CREATE INDEX observations_user_idx ON ${s}.observations (user_id)`);
    await queryRunner.query(`ALTER TABLE ${s}.documents ADD COLUMN record_kind text CHECK (record_kind IN ('ccda', 'fhir'))`);
    await queryRunner.query(`ALTER TABLE ${s}.documents ADD COLUMN observations_read boolean NOT NULL DEFAULT false`);
    await queryRunner.query(
      `CREATE INDEX documents_observations_backfill_idx ON ${s}.documents (uploaded_at) WHERE state = 'read' AND NOT observations_read`,
    );
    await queryRunner.query(`
      CREATE TABLE ${s}.entitlements (
        owner_id text PRIMARY KEY,
        plan text NOT NULL CHECK (plan IN ('free', 'basic', 'standard', 'plus', 'pro')),
        changed_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // The trends (series keys) a share link shares.
    await queryRunner.query(`ALTER TABLE ${s}.share_links ADD COLUMN trends jsonb NOT NULL DEFAULT '[]'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    await queryRunner.query(`ALTER TABLE ${s}.share_links DROP COLUMN trends`);
    await queryRunner.query(`DROP TABLE ${s}.entitlements`);
    await queryRunner.query(`DROP INDEX ${s}.documents_observations_backfill_idx`);
    await queryRunner.query(`ALTER TABLE ${s}.documents DROP COLUMN observations_read`);
    await queryRunner.query(`ALTER TABLE ${s}.documents DROP COLUMN record_kind`);
    await queryRunner.query(`DROP TABLE ${s}.observations`);
  }
}
