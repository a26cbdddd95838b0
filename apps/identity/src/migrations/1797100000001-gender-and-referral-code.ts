import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';

/** The profile's gender (/profile saves it) and the referral code an account signed up with. */
export class GenderAndReferralCode1797100000001 implements MigrationInterface {
  name = 'GenderAndReferralCode1797100000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    const schema = schemaOf(queryRunner.connection);
    await queryRunner.query(`ALTER TABLE "${schema}"."users" ADD COLUMN gender text, ADD COLUMN referral_code text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const schema = schemaOf(queryRunner.connection);
    await queryRunner.query(`ALTER TABLE "${schema}"."users" DROP COLUMN gender, DROP COLUMN referral_code`);
  }
}
