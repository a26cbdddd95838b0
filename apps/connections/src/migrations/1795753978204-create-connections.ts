import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';

/** The connections service's first tables. Later changes are new migrations, never edits of this one. */
export class CreateConnections1795753978204 implements MigrationInterface {
  name = 'CreateConnections1795753978204';

  async up(queryRunner: QueryRunner): Promise<void> {
    const schema = schemaOf(queryRunner.connection);
    await queryRunner.query(`
      CREATE TABLE "${schema}"."connections" (
        id uuid PRIMARY KEY,
        owner_id text NOT NULL,
        endpoint_id text NOT NULL,
        status text NOT NULL CHECK (status IN ('connected', 'reconnect')),
        scope text NOT NULL,
        patient_sealed bytea NOT NULL,
        access_token_sealed bytea NOT NULL,
        refresh_token_sealed bytea,
        access_expires_at timestamptz NOT NULL,
        token_endpoint text NOT NULL,
        revocation_endpoint text,
        client_id text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_sync_at timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX connections_owner_idx ON "${schema}"."connections" (owner_id, created_at DESC)`);
    await queryRunner.query(`
      CREATE TABLE "${schema}"."pending_authorizations" (
        state_hash text PRIMARY KEY,
        owner_id text NOT NULL,
        endpoint_id text NOT NULL,
        verifier_sealed bytea NOT NULL,
        redirect_uri text NOT NULL,
        client_id text NOT NULL,
        token_endpoint text NOT NULL,
        revocation_endpoint text,
        expires_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX pending_authorizations_expiry_idx ON "${schema}"."pending_authorizations" (expires_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const schema = schemaOf(queryRunner.connection);
    await queryRunner.query(`DROP TABLE "${schema}"."pending_authorizations"`);
    await queryRunner.query(`DROP TABLE "${schema}"."connections"`);
  }
}
