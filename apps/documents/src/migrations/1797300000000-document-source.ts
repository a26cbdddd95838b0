import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';

/** Where a document was fetched from (hospital connections), kept beside its name; null for uploads. */
export class DocumentSource1797300000000 implements MigrationInterface {
  name = 'DocumentSource1797300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "${schemaOf(queryRunner.connection)}".documents ADD COLUMN source text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "${schemaOf(queryRunner.connection)}".documents DROP COLUMN source`);
  }
}
