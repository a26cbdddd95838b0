import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';

/** Documents may be structured health records, a C-CDA (xml) or a FHIR resource (json). */
export class StructuredRecordKinds1797000000000 implements MigrationInterface {
  name = 'StructuredRecordKinds1797000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await this.allow(queryRunner, ['pdf', 'jpeg', 'png', 'doc', 'docx', 'zip', 'xml', 'json']);
  }

  /** Fails while records are kept: they have to be deleted first. */
  async down(queryRunner: QueryRunner): Promise<void> {
    await this.allow(queryRunner, ['pdf', 'jpeg', 'png', 'doc', 'docx', 'zip']);
  }

  private async allow(queryRunner: QueryRunner, kinds: string[]): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    // documents_kind_check is the name PostgreSQL gave the column's CHECK in CreateDocuments.
    await queryRunner.query(`
      ALTER TABLE ${s}.documents
        DROP CONSTRAINT documents_kind_check,
        ADD CONSTRAINT documents_kind_check CHECK (kind IN (${kinds.map((k) => `'${k}'`).join(', ')}))`);
  }
}
