import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { BillingMode, PlanId } from '@medfolio/contracts';

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
