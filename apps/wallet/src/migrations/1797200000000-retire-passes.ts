import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';

/**
 * A pass whose link was revoked is retired, not renewed. Its row stays (its token
 * answers 401 for good) and the owner's next pass is a new row, so an owner has at most one live pass
 * (a partial unique index) and any number of retired ones.
 */
export class RetirePasses1797200000000 implements MigrationInterface {
  name = 'RetirePasses1797200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const schema = schemaOf(queryRunner.connection);
    await queryRunner.query(`ALTER TABLE "${schema}"."passes" ADD COLUMN retired_at timestamptz`);
    // A pass whose link already stopped (it used to be given a new one on its next fetch) is retired now.
    await queryRunner.query(`UPDATE "${schema}"."passes" SET retired_at = now() WHERE link_state <> 'active'`);
    await queryRunner.query(`ALTER TABLE "${schema}"."passes" DROP CONSTRAINT IF EXISTS passes_owner_id_key`);
    await queryRunner.query(`CREATE UNIQUE INDEX passes_live_owner_idx ON "${schema}"."passes" (owner_id) WHERE retired_at IS NULL`);
    await queryRunner.query(`CREATE INDEX passes_owner_idx ON "${schema}"."passes" (owner_id, retired_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const schema = schemaOf(queryRunner.connection);
    await queryRunner.query(`DELETE FROM "${schema}"."passes" WHERE retired_at IS NOT NULL`);
    await queryRunner.query(`DROP INDEX "${schema}".passes_owner_idx`);
    await queryRunner.query(`DROP INDEX "${schema}".passes_live_owner_idx`);
    await queryRunner.query(`ALTER TABLE "${schema}"."passes" ADD CONSTRAINT passes_owner_id_key UNIQUE (owner_id)`);
    await queryRunner.query(`ALTER TABLE "${schema}"."passes" DROP COLUMN retired_at`);
  }
}
