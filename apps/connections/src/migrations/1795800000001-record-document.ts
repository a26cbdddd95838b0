import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';

/** The document (in the documents service) that holds a connection's records as a FHIR Bundle, replaced after each sync that changed something. */
export class RecordDocument1795800000001 implements MigrationInterface {
  name = 'RecordDocument1795800000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "${schemaOf(queryRunner.connection)}"."connections" ADD COLUMN record_document_id uuid, ADD COLUMN record_document_stale boolean NOT NULL DEFAULT false`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "${schemaOf(queryRunner.connection)}"."connections" DROP COLUMN record_document_id, DROP COLUMN record_document_stale`);
  }
}
