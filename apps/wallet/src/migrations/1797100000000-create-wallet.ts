import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';

/** The wallet service's first tables. Later changes are new migrations, never edits of this one. */
export class CreateWallet1797100000000 implements MigrationInterface {
  name = 'CreateWallet1797100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const schema = schemaOf(queryRunner.connection);
    await queryRunner.query(`CREATE SEQUENCE "${schema}"."pass_update_tags"`);
    await queryRunner.query(`
      CREATE TABLE "${schema}"."passes" (
        serial_number uuid PRIMARY KEY,
        owner_id text NOT NULL UNIQUE,
        authentication_token text NOT NULL,
        show_name boolean NOT NULL DEFAULT false,
        link_id uuid,
        link_version integer NOT NULL DEFAULT 0,
        link_url text,
        link_state text NOT NULL DEFAULT 'active',
        update_tag bigint NOT NULL,
        updated_at timestamptz NOT NULL,
        signed_digest text,
        signed_key text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX passes_link_idx ON "${schema}"."passes" (link_id)`);
    await queryRunner.query(`
      CREATE TABLE "${schema}"."registrations" (
        device_library_identifier text NOT NULL,
        serial_number uuid NOT NULL REFERENCES "${schema}"."passes" (serial_number) ON DELETE CASCADE,
        push_token text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (device_library_identifier, serial_number)
      )`);
    await queryRunner.query(`CREATE INDEX registrations_serial_idx ON "${schema}"."registrations" (serial_number)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const schema = schemaOf(queryRunner.connection);
    await queryRunner.query(`DROP TABLE "${schema}"."registrations"`);
    await queryRunner.query(`DROP TABLE "${schema}"."passes"`);
    await queryRunner.query(`DROP SEQUENCE "${schema}"."pass_update_tags"`);
  }
}
