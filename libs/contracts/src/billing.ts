import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsISO8601, IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';
import type { NoPayload, RpcShape } from './rpc-map';

/**
 * Plans (spec section 9). Internal ids as the spec names them; 'pro' is shown to users as 'Family'.
 * Everyone without a subscription is on 'free'.
 */
export const PLAN_IDS = ['free', 'basic', 'standard', 'plus', 'pro'] as const;
export type PlanId = (typeof PLAN_IDS)[number];
export type PaidPlanId = Exclude<PlanId, 'free'>;
export const PAID_PLAN_IDS: readonly PaidPlanId[] = ['basic', 'standard', 'plus', 'pro'];

export const PLAN_NAMES: Record<PlanId, string> = {
  free: 'Free',
  basic: 'Basic',
  standard: 'Standard',
  plus: 'Plus',
  pro: 'Family',
};

/** Billing modes as the checkout payload names them (section 3). */
export const BILLING_MODES = ['monthly', 'yearly'] as const;
export type BillingMode = (typeof BILLING_MODES)[number];

/** Where a refused upload sends the user to choose a bigger plan. */
export const MEMBERSHIP_PATH = '/membership';

export const BILLING_SUBJECTS = {
  /** Request/reply, public: the plans with their prices and whether payments are configured. */
  plans: 'billing.plans.list',
  /** Request/reply: the caller's plan, subscription and payment dates (MembershipView). */
  membership: 'billing.membership.get',
  /** Request/reply: CheckoutDto → CheckoutReply (POST /api/stripe/checkout/). */
  checkout: 'billing.checkout.create',
  /** Request/reply: cancel the caller's subscription at the end of the period → MembershipView. */
  cancel: 'billing.subscription.cancel',
  /** Request/reply: a Stripe webhook delivery as received (raw body and signature) → WebhookReply. */
  webhook: 'billing.webhook.receive',
  /** Request/reply: the caller's referral code, link and counts (ReferralView). */
  referral: 'billing.referral.get',
  /** Request/reply: InviteDto → the same message whatever the address (MessageReply). */
  invite: 'billing.referral.invite',
  /** Event (BILLING stream): EntitlementChangedEvent, whenever a user's plan starts, changes or ends. */
  entitlementChanged: 'billing.entitlement.changed.v1',
} as const;

export const BILLING_MESSAGES = {
  invalidPlan: 'Invalid plan selected.',
  notConfigured: 'Payments are not configured on this server, so plans cannot be bought here. You stay on the Free plan.',
  samePlan: (name: string, mode: BillingMode) => `You are already on the ${name} plan, billed ${mode}.`,
  noSubscription: 'You have no paid plan to cancel.',
  alreadyCancelled: 'Your plan is already set to end at the end of the period.',
  badSignature: 'The webhook signature is not valid.',
  inviteSent: 'Thank you! If this address can join, your invitation is on its way.',
  inviteSelf: 'You cannot invite yourself.',
  invitesTooMany: (wait: string) => `You have sent many invitations; please try again in ${wait}.`,
  paymentPending: 'Your payment is being confirmed; your plan changes as soon as it is.',
} as const;

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** POST /api/stripe/checkout/ (section 3's checkout payload). */
export class CheckoutDto {
  @IsString({ message: BILLING_MESSAGES.invalidPlan })
  @Matches(/^price_[a-z]+_(monthly|yearly)$/, { message: BILLING_MESSAGES.invalidPlan })
  price_id!: string;

  @IsIn(PAID_PLAN_IDS, { message: BILLING_MESSAGES.invalidPlan })
  tier!: PaidPlanId;

  @IsIn(BILLING_MODES, { message: BILLING_MESSAGES.invalidPlan })
  mode!: BillingMode;
}

export interface CheckoutReply {
  /**
   * The client secret of the first payment of a new subscription, for Stripe.js's card
   * confirmation; null when nothing has to be confirmed now (a plan change whose prorated difference
   * was invoiced and paid at once).
   */
  id: string | null;
  /** What happened, in a sentence the page can show. */
  message: string;
  /** The order: subtotal, the 8% tax and the total, in cents. */
  subtotal_cents: number;
  tax_cents: number;
  total_cents: number;
}

/** One plan as the pricing page shows it (amounts in whole cents, USD). */
export interface PlanView {
  id: PlanId;
  name: string;
  monthly_cents: number;
  yearly_cents: number;
  /** Our price ids (lookup keys in Stripe); empty for Free. */
  price_ids: { monthly: string; yearly: string } | null;
}

export interface PlansReply {
  plans: PlanView[];
  /** False without STRIPE_SECRET_KEY: plans are shown, nothing can be bought. */
  payments_configured: boolean;
  tax_percent: number;
}

export const SUBSCRIPTION_STATES = ['none', 'incomplete', 'active', 'past_due', 'canceled'] as const;
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];

/** GET /api/membership/: what /profile and /membership show. */
export interface MembershipView {
  plan: PlanId;
  plan_name: string;
  /** The subscription behind it ('none' for Free, or a referral month of Basic). */
  status: SubscriptionState;
  mode: BillingMode | null;
  /** The price of one period, in cents (0 on Free). */
  price_cents: number;
  /** True while the subscription renews by itself (autopay); false once cancelled. */
  autopay: boolean;
  /** ISO 8601: when the current period ends (the next payment, or the end of a cancelled plan). */
  current_period_end: string | null;
  cancel_at_period_end: boolean;
  /** ISO 8601: a past-due plan stays until then. */
  grace_until: string | null;
  /** ISO 8601: the end of a free month of Basic earned by referrals. */
  granted_until: string | null;
  payments_configured: boolean;
}

/** The Stripe webhook as the gateway received it: the exact bytes (as UTF-8) and the header. */
export class WebhookDto {
  @IsString()
  @MaxLength(1_000_000)
  payload!: string;

  @IsString()
  @MaxLength(2000)
  signature!: string;
}

export interface WebhookReply {
  received: true;
  /** 'processed', 'duplicate' (already handled) or 'ignored' (a type billing does not act on). */
  outcome: 'processed' | 'duplicate' | 'ignored';
}

/** GET /api/referral/. */
export interface ReferralView {
  code: string;
  /** `<PUBLIC_BASE_URL>/sign-up?ref=CODE`. */
  link: string;
  /** Invitations sent (distinct addresses). */
  invited: number;
  /** People who signed up with the code. */
  joined: number;
  /** Those who verified their e-mail as a new account: what earns months. */
  counted: number;
  /** Months earned: one per 3 counted. */
  months_earned: number;
  /** Counted referrals towards the next month (0, 1 or 2). */
  towards_next: number;
  /** The credit given on invoices so far, in cents (paying users). */
  credit_cents: number;
}

export class InviteDto {
  @MaxLength(100, { message: 'Limit exceeded' })
  @IsEmail({}, { message: 'Invalid email' })
  @IsNotEmpty({ message: 'Email is required' })
  @IsString({ message: 'Email is required' })
  @Transform(trim)
  email!: string;
}

/** A referral code as identity's sign-up carries it (`ref`). */
export const REFERRAL_CODE_PATTERN = /^[A-Z0-9]{8}$/;

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

/** This service's part of the request/reply map (libs/contracts rpc-map.ts `RpcMap` extends it). */
export interface BillingRpc {
  [BILLING_SUBJECTS.plans]: RpcShape<NoPayload, PlansReply>;
  [BILLING_SUBJECTS.membership]: RpcShape<NoPayload, MembershipView>;
  [BILLING_SUBJECTS.checkout]: RpcShape<CheckoutDto, CheckoutReply>;
  [BILLING_SUBJECTS.cancel]: RpcShape<NoPayload, MembershipView>;
  [BILLING_SUBJECTS.webhook]: RpcShape<WebhookDto, WebhookReply>;
  [BILLING_SUBJECTS.referral]: RpcShape<NoPayload, ReferralView>;
  [BILLING_SUBJECTS.invite]: RpcShape<InviteDto, { message: string }>;
}
