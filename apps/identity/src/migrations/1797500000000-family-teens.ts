import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';

/**
 * Family, second round (issue 30): a dependant's own sign-in (claim links; the account created
 * takes the dependant's id), their answer about their proxies' access (assent), and invitations
 * that give the guardian role (a co-parent).
 */
export class FamilyTeens1797500000000 implements MigrationInterface {
  name = 'FamilyTeens1797500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    await queryRunner.query(`
      ALTER TABLE ${s}.dependants
        ADD COLUMN claimed_at timestamptz,
        ADD COLUMN assent text CHECK (assent IN ('given', 'declined')),
        ADD COLUMN assent_at timestamptz`);
    await queryRunner.query(`ALTER TABLE ${s}.family_invites DROP CONSTRAINT IF EXISTS family_invites_role_check`);
    await queryRunner.query(`ALTER TABLE ${s}.family_invites ADD CONSTRAINT family_invites_role_check CHECK (role IN ('guardian', 'manage', 'view'))`);
    await queryRunner.query(`
      CREATE TABLE ${s}.family_claims (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        patient_id uuid NOT NULL,
        email text NOT NULL,
        token_hash text NOT NULL UNIQUE,
        invited_by uuid NOT NULL REFERENCES ${s}.users(id),
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        claimed_at timestamptz,
        replaced_at timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX family_claims_patient ON ${s}.family_claims (patient_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    await queryRunner.query(`DROP TABLE ${s}.family_claims`);
    await queryRunner.query(`ALTER TABLE ${s}.family_invites DROP CONSTRAINT IF EXISTS family_invites_role_check`);
    await queryRunner.query(`ALTER TABLE ${s}.family_invites ADD CONSTRAINT family_invites_role_check CHECK (role IN ('manage', 'view'))`);
    await queryRunner.query(`ALTER TABLE ${s}.dependants DROP COLUMN assent_at, DROP COLUMN assent, DROP COLUMN claimed_at`);
  }
}
