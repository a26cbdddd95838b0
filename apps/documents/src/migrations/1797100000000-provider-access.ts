import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';

/** Providers' access requests and the patient's grants. */
export class ProviderAccess1797100000000 implements MigrationInterface {
  name = 'ProviderAccess1797100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    await queryRunner.query(`
      CREATE TABLE ${s}.access_requests (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        patient_id text NOT NULL,
        provider_id text NOT NULL,
        provider jsonb NOT NULL,
        patient_first_name text NOT NULL DEFAULT '',
        link_id text NOT NULL,
        link_label text NOT NULL DEFAULT '',
        state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'approved', 'declined')),
        created_at timestamptz NOT NULL DEFAULT now(),
        decided_at timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX access_requests_patient_idx ON ${s}.access_requests (patient_id, state)`);
    // One pending request per provider and patient: asking twice does not mail the patient twice.
    await queryRunner.query(`CREATE UNIQUE INDEX access_requests_one_pending ON ${s}.access_requests (patient_id, provider_id) WHERE state = 'pending'`);
    await queryRunner.query(`
      CREATE TABLE ${s}.provider_grants (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        patient_id text NOT NULL,
        provider_id text NOT NULL,
        provider jsonb NOT NULL,
        patient_first_name text NOT NULL DEFAULT '',
        source text NOT NULL CHECK (source IN ('approved', 'share-link')),
        request_id uuid REFERENCES ${s}.access_requests(id),
        link_id text NOT NULL,
        granted_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX provider_grants_provider_idx ON ${s}.provider_grants (provider_id, patient_id)`);
    await queryRunner.query(`CREATE INDEX provider_grants_patient_idx ON ${s}.provider_grants (patient_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    await queryRunner.query(`DROP TABLE ${s}.provider_grants`);
    await queryRunner.query(`DROP TABLE ${s}.access_requests`);
  }
}
