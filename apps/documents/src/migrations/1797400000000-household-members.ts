import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';

/** Dependants and the account holder whose plan covers them (identity.user.household-changed.v1). */
export class HouseholdMembers1797400000000 implements MigrationInterface {
  name = 'HouseholdMembers1797400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    await queryRunner.query(`
      CREATE TABLE ${s}.household_members (
        patient_id text PRIMARY KEY,
        holder_id text NOT NULL,
        first_name text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX household_members_holder ON ${s}.household_members (holder_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "${schemaOf(queryRunner.connection)}".household_members`);
  }
}
