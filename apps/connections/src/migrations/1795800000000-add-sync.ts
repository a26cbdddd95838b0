import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';

/**
 * Sync: each connection's state (idle or syncing, since when), last error in plain words, checkpoints
 * and counts per resource type; and the fetched resources themselves, one row per connection, type
 * and id (updated in place), the JSON sealed.
 */
export class AddSync1795800000000 implements MigrationInterface {
  name = 'AddSync1795800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const schema = schemaOf(queryRunner.connection);
    await queryRunner.query(`
      ALTER TABLE "${schema}"."connections"
        ADD COLUMN sync_state text NOT NULL DEFAULT 'idle' CHECK (sync_state IN ('idle', 'syncing')),
        ADD COLUMN sync_started_at timestamptz,
        ADD COLUMN last_sync_error text,
        ADD COLUMN sync_checkpoints jsonb NOT NULL DEFAULT '{}'::jsonb,
        ADD COLUMN sync_counts jsonb NOT NULL DEFAULT '{}'::jsonb`);
    await queryRunner.query(`CREATE INDEX connections_sync_due_idx ON "${schema}"."connections" (last_sync_at NULLS FIRST) WHERE status = 'connected'`);
    await queryRunner.query(`
      CREATE TABLE "${schema}"."connection_resources" (
        connection_id uuid NOT NULL REFERENCES "${schema}"."connections" (id) ON DELETE CASCADE,
        resource_type text NOT NULL,
        resource_id text NOT NULL,
        version_id text,
        last_updated timestamptz,
        body_sealed bytea NOT NULL,
        fetched_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (connection_id, resource_type, resource_id)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const schema = schemaOf(queryRunner.connection);
    await queryRunner.query(`DROP TABLE "${schema}"."connection_resources"`);
    await queryRunner.query(`DROP INDEX "${schema}"."connections_sync_due_idx"`);
    await queryRunner.query(`ALTER TABLE "${schema}"."connections" DROP COLUMN sync_state, DROP COLUMN sync_started_at, DROP COLUMN last_sync_error, DROP COLUMN sync_checkpoints, DROP COLUMN sync_counts`);
  }
}
