import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';

/**
 * Removing a dependant erases their record (docs/guide/family.md): the row stays as a tombstone
 * (its id keyed the record everywhere, and the erasure must be idempotent), with `erased_at` set and
 * the name and date of birth cleared.
 */
export class DependantErasure1797400000010 implements MigrationInterface {
  name = 'DependantErasure1797400000010';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    await queryRunner.query(`ALTER TABLE ${s}.dependants ADD COLUMN erased_at timestamptz`);
    await queryRunner.query(`ALTER TABLE ${s}.dependants ALTER COLUMN date_of_birth DROP NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    await queryRunner.query(`DELETE FROM ${s}.dependants WHERE erased_at IS NOT NULL`);
    await queryRunner.query(`ALTER TABLE ${s}.dependants ALTER COLUMN date_of_birth SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE ${s}.dependants DROP COLUMN erased_at`);
  }
}
