import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';

/** The billing service's first tables. Later changes are new migrations, never edits of this one. */
export class CreateBilling1797100000000 implements MigrationInterface {
  name = 'CreateBilling1797100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner.connection);
    await queryRunner.query(`
      CREATE TABLE "${s}"."customers" (
        user_id text PRIMARY KEY,
        stripe_customer_id text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE "${s}"."subscriptions" (
        id text PRIMARY KEY,
        user_id text NOT NULL,
        stripe_customer_id text NOT NULL,
        status text NOT NULL,
        plan text NOT NULL,
        mode text NOT NULL,
        item_id text,
        current_period_end timestamptz,
        cancel_at_period_end boolean NOT NULL DEFAULT false,
        grace_until timestamptz,
        state_at bigint NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX subscriptions_user_idx ON "${s}"."subscriptions" (user_id, created_at DESC)`);
    await queryRunner.query(`CREATE INDEX subscriptions_grace_idx ON "${s}"."subscriptions" (grace_until) WHERE status = 'past_due'`);
    await queryRunner.query(`
      CREATE TABLE "${s}"."entitlements" (
        user_id text PRIMARY KEY,
        plan text NOT NULL,
        changed_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`
      CREATE TABLE "${s}"."grants" (
        id uuid PRIMARY KEY,
        user_id text NOT NULL,
        plan text NOT NULL,
        starts_at timestamptz NOT NULL,
        ends_at timestamptz NOT NULL,
        reason text NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX grants_user_idx ON "${s}"."grants" (user_id, ends_at DESC)`);
    await queryRunner.query(`CREATE INDEX grants_ends_idx ON "${s}"."grants" (ends_at)`);
    await queryRunner.query(`
      CREATE TABLE "${s}"."accounts" (
        user_id text PRIMARY KEY,
        email_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX accounts_email_idx ON "${s}"."accounts" (email_hash)`);
    await queryRunner.query(`
      CREATE TABLE "${s}"."referral_codes" (
        user_id text PRIMARY KEY,
        code text NOT NULL UNIQUE
      )`);
    await queryRunner.query(`
      CREATE TABLE "${s}"."referrals" (
        invitee_user_id text PRIMARY KEY,
        referrer_user_id text NOT NULL,
        invitee_email_hash text NOT NULL,
        state text NOT NULL CHECK (state IN ('joined', 'counted', 'refused')),
        reason text,
        joined_at timestamptz NOT NULL DEFAULT now(),
        counted_at timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX referrals_referrer_idx ON "${s}"."referrals" (referrer_user_id, state)`);
    // One counted referral per address, ever: the same person cannot be counted twice.
    await queryRunner.query(`CREATE UNIQUE INDEX referrals_counted_email_idx ON "${s}"."referrals" (invitee_email_hash) WHERE state = 'counted'`);
    await queryRunner.query(`
      CREATE TABLE "${s}"."invites" (
        id uuid PRIMARY KEY,
        referrer_user_id text NOT NULL,
        email_hash text NOT NULL,
        sent_at timestamptz NOT NULL,
        UNIQUE (referrer_user_id, email_hash)
      )`);
    await queryRunner.query(`CREATE INDEX invites_sent_idx ON "${s}"."invites" (referrer_user_id, sent_at DESC)`);
    await queryRunner.query(`
      CREATE TABLE "${s}"."referral_rewards" (
        user_id text NOT NULL,
        number int NOT NULL,
        kind text NOT NULL CHECK (kind IN ('credit', 'grant')),
        amount_cents int NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, number)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner.connection);
    for (const table of ['referral_rewards', 'invites', 'referrals', 'referral_codes', 'accounts', 'grants', 'entitlements', 'subscriptions', 'customers']) {
      await queryRunner.query(`DROP TABLE "${s}"."${table}"`);
    }
  }
}
