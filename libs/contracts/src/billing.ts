import { IsIn, IsISO8601, IsString, Matches, MaxLength } from 'class-validator';

/**
 * Plans (spec section 9). Internal ids as the spec names them; 'pro' is shown to users as 'Family'.
 * Everyone without a subscription is on 'free'.
 */
export const PLAN_IDS = ['free', 'basic', 'standard', 'plus', 'pro'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export const PLAN_NAMES: Record<PlanId, string> = {
  free: 'Free',
  basic: 'Basic',
  standard: 'Standard',
  plus: 'Plus',
  pro: 'Family',
};

export const BILLING_SUBJECTS = {
  /** Event (BILLING stream): EntitlementChangedEvent, whenever a user's plan starts, changes or ends. */
  entitlementChanged: 'billing.entitlement.changed.v1',
} as const;

/**
 * billing.entitlement.changed.v1: the plan a user is entitled to from `changed_at` on. Billing
 * publishes it through its outbox (message id = outbox row id); consumers keep their own projection
 * and apply an event only if it is newer than what they hold (redeliveries and late events are
 * harmless). A cancelled subscription is an event with plan 'free'.
 */
export class EntitlementChangedEvent {
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,128}$/, { message: 'user_id must be a user id' })
  user_id!: string;

  @IsIn(PLAN_IDS, { message: `plan must be one of: ${PLAN_IDS.join(', ')}` })
  plan!: PlanId;

  /** ISO 8601: when the entitlement took effect (the order of events for one user). */
  @IsISO8601({ strict: true }, { message: 'changed_at must be an ISO 8601 date and time' })
  @MaxLength(40)
  changed_at!: string;
}
