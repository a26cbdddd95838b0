import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';

/**
 * A registry name match is a claim, not proof. Each licence claim gets a review
 * state ('pending' until an operator verifies or rejects it; claims made before this are pending
 * too: they were name matches only), and the real holder of a claimed number can dispute the claim.
 * A rejected claim no longer holds its number (the unique index skips it).
 */
export class LicenseReview1797300000025 implements MigrationInterface {
  name = 'LicenseReview1797300000025';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    await queryRunner.query(`
      ALTER TABLE ${s}.provider_licenses
        ADD COLUMN review text NOT NULL DEFAULT 'pending' CHECK (review IN ('pending', 'verified', 'rejected')),
        ADD COLUMN reviewed_at timestamptz,
        ADD COLUMN reviewed_by text,
        ADD COLUMN review_note text NOT NULL DEFAULT ''`);
    await queryRunner.query(`ALTER TABLE ${s}.provider_licenses DROP CONSTRAINT provider_licenses_license_number_key`);
    await queryRunner.query(`CREATE UNIQUE INDEX provider_licenses_number_claimed ON ${s}.provider_licenses (license_number) WHERE review <> 'rejected'`);
    await queryRunner.query(`
      CREATE TABLE ${s}.provider_license_disputes (
        id uuid PRIMARY KEY,
        license_number text NOT NULL,
        claimant_id uuid NOT NULL REFERENCES ${s}.users(id) ON DELETE CASCADE,
        holder_id uuid NOT NULL,
        state text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'upheld', 'dismissed')),
        created_at timestamptz NOT NULL DEFAULT now(),
        decided_at timestamptz,
        decided_by text,
        note text NOT NULL DEFAULT ''
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX provider_license_disputes_open ON ${s}.provider_license_disputes (license_number, claimant_id) WHERE state = 'open'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    await queryRunner.query(`DROP TABLE ${s}.provider_license_disputes`);
    await queryRunner.query(`DELETE FROM ${s}.provider_licenses WHERE review = 'rejected'`);
    await queryRunner.query(`DROP INDEX ${s}.provider_licenses_number_claimed`);
    await queryRunner.query(`ALTER TABLE ${s}.provider_licenses ADD CONSTRAINT provider_licenses_license_number_key UNIQUE (license_number)`);
    await queryRunner.query(`ALTER TABLE ${s}.provider_licenses DROP COLUMN review, DROP COLUMN reviewed_at, DROP COLUMN reviewed_by, DROP COLUMN review_note`);
  }
}
