import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';

/** A document its owner hid from the people with proxy access to their record (family, issue 30). */
export class PrivateDocuments1797500000000 implements MigrationInterface {
  name = 'PrivateDocuments1797500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "${schemaOf(queryRunner.connection)}".documents ADD COLUMN private boolean NOT NULL DEFAULT false`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "${schemaOf(queryRunner.connection)}".documents DROP COLUMN private`);
  }
}
