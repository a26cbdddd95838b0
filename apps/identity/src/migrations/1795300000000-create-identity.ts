import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';

export class CreateIdentity1795300000000 implements MigrationInterface {
  name = 'CreateIdentity1795300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    await queryRunner.query(`
      CREATE TABLE ${s}.users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL,
        email_normalized text NOT NULL UNIQUE,
        first_name text NOT NULL,
        last_name text NOT NULL DEFAULT '',
        phone text NOT NULL DEFAULT '',
        date_of_birth date,
        password_hash text,
        email_verified boolean NOT NULL DEFAULT false,
        google_subject text UNIQUE,
        profile_picture_key text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE ${s}.otp_codes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES ${s}.users(id) ON DELETE CASCADE,
        code_hash text NOT NULL,
        expires_at timestamptz NOT NULL,
        failed_attempts int NOT NULL DEFAULT 0,
        consumed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX otp_codes_user_idx ON ${s}.otp_codes (user_id, created_at)`);
    await queryRunner.query(`
      CREATE TABLE ${s}.refresh_families (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES ${s}.users(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz,
        revoked_reason text
      )`);
    await queryRunner.query(`CREATE INDEX refresh_families_user_idx ON ${s}.refresh_families (user_id)`);
    await queryRunner.query(`
      CREATE TABLE ${s}.refresh_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        family_id uuid NOT NULL REFERENCES ${s}.refresh_families(id) ON DELETE CASCADE,
        token_hash text NOT NULL UNIQUE,
        expires_at timestamptz NOT NULL,
        rotated_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX refresh_tokens_family_idx ON ${s}.refresh_tokens (family_id)`);
    await queryRunner.query(`
      CREATE TABLE ${s}.password_resets (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES ${s}.users(id) ON DELETE CASCADE,
        token_hash text NOT NULL UNIQUE,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE ${s}.auth_failures (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        scope text NOT NULL,
        subject_key text NOT NULL,
        occurred_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX auth_failures_key_idx ON ${s}.auth_failures (scope, subject_key, occurred_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    for (const table of ['auth_failures', 'password_resets', 'refresh_tokens', 'refresh_families', 'otp_codes', 'users']) {
      await queryRunner.query(`DROP TABLE ${s}.${table}`);
    }
  }
}
