import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';

/** Share links: the secret is kept as a hash (lookup) and sealed (shown to its owner again). */
export class CreateShareLinks1797000000002 implements MigrationInterface {
  name = 'CreateShareLinks1797000000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    await queryRunner.query(`
      CREATE TABLE ${s}.share_links (
        id uuid PRIMARY KEY,
        owner_id text NOT NULL,
        purpose text NOT NULL CHECK (purpose IN ('default', 'custom', 'wallet')),
        share_hash text NOT NULL UNIQUE,
        share_sealed bytea NOT NULL,
        label text NOT NULL CHECK (char_length(label) BETWEEN 1 AND 60),
        version int NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz,
        revoked_at timestamptz,
        passcode_hash text,
        failed_attempts int NOT NULL DEFAULT 0,
        notify_on_view boolean NOT NULL DEFAULT false,
        notify_email_sealed bytea,
        last_notified_at timestamptz,
        providers_may_see_documents boolean NOT NULL DEFAULT false,
        view_count int NOT NULL DEFAULT 0,
        last_viewed_at timestamptz,
        shl_key text
      )`);
    await queryRunner.query(`CREATE INDEX share_links_owner_idx ON ${s}.share_links (owner_id, created_at)`);
    // One live default (and one live wallet) link per owner: ensure() under concurrency makes one.
    await queryRunner.query(
      `CREATE UNIQUE INDEX share_links_one_live_idx ON ${s}.share_links (owner_id, purpose) WHERE revoked_at IS NULL AND purpose IN ('default', 'wallet')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    await queryRunner.query(`DROP TABLE ${s}.share_links`);
  }
}
