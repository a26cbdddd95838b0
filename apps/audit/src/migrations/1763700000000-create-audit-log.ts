import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';

/** The audit log table, append-only by trigger, and a writer role that may only INSERT and SELECT. */
export class CreateAuditLog1763700000000 implements MigrationInterface {
  name = 'CreateAuditLog1763700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const schema = schemaOf(queryRunner.connection);
    await queryRunner.query(`
      CREATE TABLE "${schema}"."audit_log" (
        position bigint PRIMARY KEY,
        event_id uuid NOT NULL UNIQUE,
        occurred_at timestamptz NOT NULL,
        recorded_at timestamptz NOT NULL,
        service text NOT NULL,
        actor text NOT NULL,
        action text NOT NULL,
        entity_type text NOT NULL,
        entity_id text,
        patient_id text,
        outcome text NOT NULL,
        ip text,
        user_agent text,
        correlation_id text NOT NULL,
        policy text,
        prev_hash char(64) NOT NULL,
        hash char(64) NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX audit_log_patient_idx ON "${schema}"."audit_log" (patient_id, position)`);
    await queryRunner.query(`
      CREATE FUNCTION "${schema}".audit_log_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'audit_log is append-only: % is not allowed', TG_OP;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER audit_log_no_update_delete BEFORE UPDATE OR DELETE ON "${schema}"."audit_log"
      FOR EACH ROW EXECUTE FUNCTION "${schema}".audit_log_is_append_only()`);
    await queryRunner.query(`
      CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON "${schema}"."audit_log"
      FOR EACH STATEMENT EXECUTE FUNCTION "${schema}".audit_log_is_append_only()`);
    // The writer role: cluster-wide, created once; granted only what appending and reading need.
    const role = writerRole(schema);
    await queryRunner.query(`
      DO $$ BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${role}') THEN CREATE ROLE "${role}" NOLOGIN; END IF;
      END $$`);
    await queryRunner.query(`GRANT USAGE ON SCHEMA "${schema}" TO "${role}"`);
    await queryRunner.query(`GRANT SELECT, INSERT ON "${schema}"."audit_log" TO "${role}"`);
    await queryRunner.query(`REVOKE UPDATE, DELETE, TRUNCATE ON "${schema}"."audit_log" FROM "${role}"`);
    // The connecting (owner) user may switch to the writer role for the service's connections.
    await queryRunner.query(`GRANT "${role}" TO CURRENT_USER`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const schema = schemaOf(queryRunner.connection);
    await queryRunner.query(`DROP TABLE "${schema}"."audit_log"`);
    await queryRunner.query(`DROP FUNCTION "${schema}".audit_log_is_append_only()`);
  }
}

/** `medfolio_audit_writer` for the `audit` schema; other schemas (tests) get their own role. */
export function writerRole(schema: string): string {
  return schema === 'audit' ? 'medfolio_audit_writer' : `${schema}_writer`;
}
