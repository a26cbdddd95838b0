import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { BillingMode, PlanId } from '@medfolio/contracts';

/** One Stripe customer per user. */
@Entity('customers')
export class Customer {
  @PrimaryColumn({ name: 'user_id', type: 'text' })
  userId!: string;

  @Column({ name: 'stripe_customer_id', type: 'text', unique: true })
  stripeCustomerId!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}

/**
 * A Stripe subscription as billing last saw it. `stateAt` is the `created` time (seconds) of the
 * event whose object was applied: an older event never overwrites a newer state.
 */
@Entity('subscriptions')
export class Subscription {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'user_id', type: 'text' })
  userId!: string;

  @Column({ name: 'stripe_customer_id', type: 'text' })
  stripeCustomerId!: string;

  /** Stripe's status: incomplete, active, trialing, past_due, unpaid, canceled, incomplete_expired, paused. */
  @Column({ type: 'text' })
  status!: string;

  @Column({ type: 'text' })
  plan!: PlanId;

  @Column({ type: 'text' })
  mode!: BillingMode;

  /** The subscription item (for plan changes). */
  @Column({ name: 'item_id', type: 'text', nullable: true })
  itemId!: string | null;

  @Column({ name: 'current_period_end', type: 'timestamptz', nullable: true })
  currentPeriodEnd!: Date | null;

  @Column({ name: 'cancel_at_period_end', type: 'boolean', default: false })
  cancelAtPeriodEnd!: boolean;

  @Column({ name: 'grace_until', type: 'timestamptz', nullable: true })
  graceUntil!: Date | null;

  @Column({ name: 'state_at', type: 'bigint', default: 0, transformer: { to: (v: number) => v, from: (v: string | number) => Number(v) } })
  stateAt!: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}

/** The plan last published for a user (billing.entitlement.changed.v1). */
@Entity('entitlements')
export class Entitlement {
  @PrimaryColumn({ name: 'user_id', type: 'text' })
  userId!: string;

  @Column({ type: 'text' })
  plan!: PlanId;

  @Column({ name: 'changed_at', type: 'timestamptz' })
  changedAt!: Date;
}

/** A plan given without payment: one month of Basic earned by referrals (Free users). */
@Entity('grants')
export class Grant {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'user_id', type: 'text' })
  userId!: string;

  @Column({ type: 'text' })
  plan!: PlanId;

  @Column({ name: 'starts_at', type: 'timestamptz' })
  startsAt!: Date;

  @Column({ name: 'ends_at', type: 'timestamptz' })
  endsAt!: Date;

  @Column({ type: 'text' })
  reason!: string;
}

/** Every user billing has heard of (identity.user.registered.v1): to tell a new address from a known one. */
@Entity('accounts')
export class Account {
  @PrimaryColumn({ name: 'user_id', type: 'text' })
  userId!: string;

  /** SHA-256 of the normalised e-mail: equality only, the address itself is not kept. */
  @Column({ name: 'email_hash', type: 'text' })
  emailHash!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}

@Entity('referral_codes')
export class ReferralCode {
  @PrimaryColumn({ name: 'user_id', type: 'text' })
  userId!: string;

  @Column({ type: 'text', unique: true })
  code!: string;
}

/** One person who signed up with a code; `state` says whether it counts. */
@Entity('referrals')
export class Referral {
  @PrimaryColumn({ name: 'invitee_user_id', type: 'text' })
  inviteeUserId!: string;

  @Column({ name: 'referrer_user_id', type: 'text' })
  referrerUserId!: string;

  @Column({ name: 'invitee_email_hash', type: 'text' })
  inviteeEmailHash!: string;

  /** joined (signed up), counted (verified as a new account) or refused (with `reason`). */
  @Column({ type: 'text' })
  state!: 'joined' | 'counted' | 'refused';

  @Column({ type: 'text', nullable: true })
  reason!: string | null;

  @Column({ name: 'joined_at', type: 'timestamptz', default: () => 'now()' })
  joinedAt!: Date;

  @Column({ name: 'counted_at', type: 'timestamptz', nullable: true })
  countedAt!: Date | null;
}

/** An invitation e-mail sent (one per referrer and address). */
@Entity('invites')
export class Invite {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'referrer_user_id', type: 'text' })
  referrerUserId!: string;

  @Column({ name: 'email_hash', type: 'text' })
  emailHash!: string;

  @Column({ name: 'sent_at', type: 'timestamptz' })
  sentAt!: Date;
}

/** One free month earned (every 3 counted referrals): a Stripe balance credit or a month of Basic. */
@Entity('referral_rewards')
export class ReferralReward {
  @PrimaryColumn({ name: 'user_id', type: 'text' })
  userId!: string;

  /** 1 for the first month earned, 2 for the second, ... */
  @PrimaryColumn({ type: 'int' })
  number!: number;

  @Column({ type: 'text' })
  kind!: 'credit' | 'grant';

  @Column({ name: 'amount_cents', type: 'int', default: 0 })
  amountCents!: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
