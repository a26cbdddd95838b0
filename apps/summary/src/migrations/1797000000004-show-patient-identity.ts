import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';

/**
 * Each share link says whether what it hands out (page, PDF, IPS, SHL) names the patient.
 * On by default, also for the links made before (a clinician must be able to tell whose record it is).
 */
export class ShowPatientIdentity1797000000004 implements MigrationInterface {
  name = 'ShowPatientIdentity1797000000004';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    await queryRunner.query(`ALTER TABLE ${s}.share_links ADD COLUMN show_patient_identity boolean NOT NULL DEFAULT true`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = `"${schemaOf(queryRunner.connection)}"`;
    await queryRunner.query(`ALTER TABLE ${s}.share_links DROP COLUMN show_patient_identity`);
  }
}
