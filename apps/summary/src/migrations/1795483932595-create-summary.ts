import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';

/** The summary service's first tables. Later changes are new migrations, never edits of this one. */
export class CreateSummary1795483932595 implements MigrationInterface {
  name = 'CreateSummary1795483932595';

  async up(queryRunner: QueryRunner): Promise<void> {
    const schema = schemaOf(queryRunner.connection);
    await queryRunner.query(`
      CREATE TABLE "${schema}"."items" (
        id uuid PRIMARY KEY,
        owner_id text NOT NULL,
        label text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX items_owner_idx ON "${schema}"."items" (owner_id, created_at DESC)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "${schemaOf(queryRunner.connection)}"."items"`);
  }
}
