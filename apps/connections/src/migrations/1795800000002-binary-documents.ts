import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';

/** A fetched PDF or C-CDA Binary's own document in the documents service (handed over once). */
export class BinaryDocuments1795800000002 implements MigrationInterface {
  name = 'BinaryDocuments1795800000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "${schemaOf(queryRunner.connection)}"."connection_resources" ADD COLUMN document_id uuid`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "${schemaOf(queryRunner.connection)}"."connection_resources" DROP COLUMN document_id`);
  }
}
