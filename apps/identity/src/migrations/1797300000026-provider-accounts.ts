import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';

/**
 * The sign-in provider account (issuer, subject) linked to each user, so that signing in follows the
 * provider's account rather than its current e-mail address. Accounts linked before this have no
 * row: their next sign-in links them by the verified e-mail, as before.
 */
export class ProviderAccounts1797300000026 implements MigrationInterface {
  name = 'ProviderAccounts1797300000026';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    await queryRunner.query(`
      CREATE TABLE ${s}.provider_accounts (
        issuer text NOT NULL,
        subject text NOT NULL,
        provider text NOT NULL,
        user_id uuid NOT NULL REFERENCES ${s}.users(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (issuer, subject)
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX provider_accounts_user_provider ON ${s}.provider_accounts (user_id, provider)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    await queryRunner.query(`DROP TABLE ${s}.provider_accounts`);
  }
}
