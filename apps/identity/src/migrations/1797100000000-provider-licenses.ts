import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';

/** Verified licences (the provider role). */
export class ProviderLicenses1797100000000 implements MigrationInterface {
  name = 'ProviderLicenses1797100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    await queryRunner.query(`
      CREATE TABLE ${s}.provider_licenses (
        user_id uuid PRIMARY KEY REFERENCES ${s}.users(id) ON DELETE CASCADE,
        registry text NOT NULL,
        license_number text NOT NULL UNIQUE,
        first_name text NOT NULL,
        last_name text NOT NULL,
        credential text NOT NULL DEFAULT '',
        specialty text NOT NULL DEFAULT '',
        state text NOT NULL DEFAULT '',
        verified_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "${schemaOf(queryRunner.connection)}".provider_licenses`);
  }
}
