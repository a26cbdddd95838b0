import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';

/** Where a document was fetched from (hospital connections), learnt with its name; the trends' points cite it. */
export class DocumentSource1797000000006 implements MigrationInterface {
  name = 'DocumentSource1797000000006';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "${schemaOf(queryRunner.connection)}".documents ADD COLUMN source text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "${schemaOf(queryRunner.connection)}".documents DROP COLUMN source`);
  }
}
