import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';

/**
 * Priority support: a contact message says whether it came from a plan with priority support, and
 * names the signed-in account that sent it (null for a message sent signed out).
 */
export class ContactPriority1796100000001 implements MigrationInterface {
  name = 'ContactPriority1796100000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    const schema = schemaOf(queryRunner.connection);
    await queryRunner.query(`ALTER TABLE "${schema}"."contact_messages" ADD COLUMN priority boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "${schema}"."contact_messages" ADD COLUMN account_id text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const schema = schemaOf(queryRunner.connection);
    await queryRunner.query(`ALTER TABLE "${schema}"."contact_messages" DROP COLUMN account_id`);
    await queryRunner.query(`ALTER TABLE "${schema}"."contact_messages" DROP COLUMN priority`);
  }
}
