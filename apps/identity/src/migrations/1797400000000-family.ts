import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';

/**
 * Family and caregivers (issue 30): dependants (people without a sign-in, whose id keys their
 * record in every service), grants of access to a record, and e-mailed invitations.
 */
export class Family1797400000000 implements MigrationInterface {
  name = 'Family1797400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    await queryRunner.query(`
      CREATE TABLE ${s}.dependants (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        holder_id uuid NOT NULL REFERENCES ${s}.users(id),
        first_name text NOT NULL,
        last_name text NOT NULL,
        date_of_birth date NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX dependants_holder ON ${s}.dependants (holder_id)`);
    await queryRunner.query(`
      CREATE TABLE ${s}.family_grants (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        patient_id uuid NOT NULL,
        grantee_user_id uuid NOT NULL REFERENCES ${s}.users(id),
        role text NOT NULL CHECK (role IN ('guardian', 'manage', 'view')),
        created_by uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz,
        revoked_at timestamptz,
        last_active_at timestamptz,
        reminder_sent_at timestamptz,
        CHECK (patient_id <> grantee_user_id)
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX family_grants_live ON ${s}.family_grants (patient_id, grantee_user_id) WHERE revoked_at IS NULL`);
    await queryRunner.query(`CREATE INDEX family_grants_grantee ON ${s}.family_grants (grantee_user_id)`);
    await queryRunner.query(`CREATE INDEX family_grants_expiry ON ${s}.family_grants (expires_at) WHERE revoked_at IS NULL AND reminder_sent_at IS NULL`);
    await queryRunner.query(`
      CREATE TABLE ${s}.family_invites (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        patient_id uuid NOT NULL,
        email text NOT NULL,
        role text NOT NULL CHECK (role IN ('manage', 'view')),
        token_hash text NOT NULL UNIQUE,
        invited_by uuid NOT NULL REFERENCES ${s}.users(id),
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        accepted_at timestamptz,
        accepted_by uuid,
        withdrawn_at timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX family_invites_patient ON ${s}.family_invites (patient_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    await queryRunner.query(`DROP TABLE ${s}.family_invites`);
    await queryRunner.query(`DROP TABLE ${s}.family_grants`);
    await queryRunner.query(`DROP TABLE ${s}.dependants`);
  }
}
