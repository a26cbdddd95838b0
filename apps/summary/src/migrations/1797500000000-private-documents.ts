import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';

/**
 * Documents their owner hid from proxies (documents.document.privacy-changed.v1). A table of its own,
 * not a column of `documents`: the flag may arrive before the upload event made that row.
 */
export class PrivateDocuments1797500000000 implements MigrationInterface {
  name = 'PrivateDocuments1797500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    await queryRunner.query(`
      CREATE TABLE ${s}.private_documents (
        document_id uuid PRIMARY KEY,
        user_id text NOT NULL,
        private boolean NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX private_documents_user ON ${s}.private_documents (user_id) WHERE private`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "${schemaOf(queryRunner.connection)}".private_documents`);
  }
}
