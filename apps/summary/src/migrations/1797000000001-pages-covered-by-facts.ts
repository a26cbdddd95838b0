import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';

/** A page's text whose facts were already read from its structured entries (C-CDA): engines skip it. */
export class PagesCoveredByFacts1797000000001 implements MigrationInterface {
  name = 'PagesCoveredByFacts1797000000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    await queryRunner.query(`ALTER TABLE ${s}.pages ADD COLUMN covered_by_facts boolean NOT NULL DEFAULT false`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    await queryRunner.query(`ALTER TABLE ${s}.pages DROP COLUMN covered_by_facts`);
  }
}
