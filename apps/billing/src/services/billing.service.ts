import { Inject, Injectable } from '@nestjs/common';
import { AuditRecorder } from '@medfolio/audit-client';
import {
  BILLING_MESSAGES,
  DomainError,
  PLAN_NAMES,
  type CallerIdentity,
  type CheckoutDto,
  type CheckoutReply,
  type MembershipView,
  type PlansReply,
  type SubscriptionState,
} from '@medfolio/contracts';
import type { Subscription } from '../entities';
import { BillingRepository } from '../repositories/billing.repository';
import { ServicesRepository } from '../repositories/services.repository';
import { StripeRepository } from '../repositories/stripe.repository';
import { CatalogueService } from './catalogue.service';
import { subscriptionEntitles } from './entitlements';

/** Subscriptions still running (they renew, or end at the period's end). */
const LIVE = new Set(['active', 'trialing', 'past_due']);

/** Plans, the caller's membership, checkout (new plan or change) and cancellation. */
@Injectable()
export class BillingService {
  constructor(
    @Inject(CatalogueService) private readonly catalogue: CatalogueService,
    @Inject(BillingRepository) private readonly billing: BillingRepository,
    @Inject(StripeRepository) private readonly stripe: StripeRepository,
    @Inject(ServicesRepository) private readonly services: ServicesRepository,
    @Inject(AuditRecorder) private readonly audit: AuditRecorder,
  ) {}

  plans(): PlansReply {
    return {
      plans: this.catalogue.plans.views(),
      payments_configured: this.stripe.configured,
      tax_percent: this.catalogue.plans.taxPercent,
    };
  }

  async membership(caller: CallerIdentity): Promise<MembershipView> {
    const userId = requireUser(caller);
    const view = await this.view(userId);
    await this.audit.record(caller, { action: 'billing.membership.read', entityType: 'membership', entityId: userId, patientId: userId, outcome: 'success', policy: 'owner' });
    return view;
  }

  /**
   * A new subscription (its first invoice's client secret for Stripe.js), or a change of the
   * running one (the prorated difference invoiced at once; a client secret only when that payment
   * needs the customer). The plan itself changes only when Stripe's
   * signed webhook says so.
   */
  async checkout(caller: CallerIdentity, dto: CheckoutDto): Promise<CheckoutReply> {
    const userId = requireUser(caller);
    if (!this.stripe.configured) throw new DomainError('UNAVAILABLE', BILLING_MESSAGES.notConfigured);
    const price = this.catalogue.plans.find(dto.price_id, dto.tier, dto.mode);
    if (!price) throw new DomainError('VALIDATION_FAILED', BILLING_MESSAGES.invalidPlan, { price_id: [BILLING_MESSAGES.invalidPlan] });
    const order = this.catalogue.plans.order(price);
    const ids = await this.catalogue.stripeCatalogue();
    const stripePriceId = ids.prices.get(price.lookupKey)!;
    const running = (await this.billing.subscriptionsOf(userId)).find((s) => LIVE.has(s.status));
    const audit = (action: string) =>
      this.audit.record(caller, { action, entityType: 'subscription', entityId: userId, patientId: userId, outcome: 'success', policy: 'owner' });

    if (running) {
      if (running.plan === price.plan && running.mode === price.mode) {
        if (!running.cancelAtPeriodEnd) throw new DomainError('CONFLICT', BILLING_MESSAGES.samePlan(PLAN_NAMES[price.plan], price.mode));
        await this.stripe.setCancelAtPeriodEnd(running.id, false);
        await this.billing.saveSubscription({ id: running.id, cancelAtPeriodEnd: false });
        await audit('billing.subscription.resume');
        return { id: null, message: `Your ${PLAN_NAMES[price.plan]} plan will renew as before.`, ...order };
      }
      if (!running.itemId) throw new DomainError('CONFLICT', BILLING_MESSAGES.paymentPending);
      // The prorated difference is invoiced and charged now, and the change applies only once it is
      // paid (see StripeRepository.changePrice): an upgrade followed by a cancel cannot skip it.
      const change = await this.stripe.changePrice(running.id, running.itemId, stripePriceId);
      if (!change.applied) {
        await audit('billing.subscription.change');
        if (!change.clientSecret) throw new DomainError('CONFLICT', BILLING_MESSAGES.paymentPending);
        return { id: change.clientSecret, message: `Confirm the payment to change your plan to ${PLAN_NAMES[price.plan]} (${price.mode}).`, ...order };
      }
      if (running.cancelAtPeriodEnd) await this.stripe.setCancelAtPeriodEnd(running.id, false);
      await this.billing.saveSubscription({ id: running.id, cancelAtPeriodEnd: false });
      await audit('billing.subscription.change');
      return {
        id: null,
        message: `Your plan changes to ${PLAN_NAMES[price.plan]} (${price.mode}) now; the prorated difference has been invoiced.`,
        ...order,
      };
    }

    const customerId = await this.customerFor(caller, userId);
    const created = await this.stripe.createSubscription({ customerId, stripePriceId, taxRateId: ids.taxRateId, userId, plan: price.plan, mode: price.mode });
    // Recorded as incomplete whatever the answer says: the plan starts with the webhook that says it is paid.
    await this.billing.saveSubscription({
      id: created.id,
      userId,
      stripeCustomerId: customerId,
      status: 'incomplete',
      plan: price.plan,
      mode: price.mode,
      itemId: created.itemId,
      currentPeriodEnd: created.currentPeriodEnd ? new Date(created.currentPeriodEnd * 1000) : null,
      cancelAtPeriodEnd: false,
      graceUntil: null,
      stateAt: 0,
    });
    await audit('billing.subscription.create');
    return { id: created.clientSecret, message: 'Confirm the payment to start your plan.', ...order };
  }

  /** Ends the paid plan at the end of the current period (nothing is refunded; the plan runs until then). */
  async cancel(caller: CallerIdentity): Promise<MembershipView> {
    const userId = requireUser(caller);
    if (!this.stripe.configured) throw new DomainError('UNAVAILABLE', BILLING_MESSAGES.notConfigured);
    const running = (await this.billing.subscriptionsOf(userId)).find((s) => LIVE.has(s.status));
    if (!running) throw new DomainError('NOT_FOUND', BILLING_MESSAGES.noSubscription);
    if (running.cancelAtPeriodEnd) throw new DomainError('CONFLICT', BILLING_MESSAGES.alreadyCancelled);
    await this.stripe.setCancelAtPeriodEnd(running.id, true);
    await this.billing.saveSubscription({ id: running.id, cancelAtPeriodEnd: true });
    await this.audit.record(caller, { action: 'billing.subscription.cancel', entityType: 'subscription', entityId: userId, patientId: userId, outcome: 'success', policy: 'owner' });
    return this.view(userId);
  }

  private async customerFor(caller: CallerIdentity, userId: string): Promise<string> {
    const known = await this.billing.customerOf(userId);
    if (known) return known.stripeCustomerId;
    const profile = await this.services.profile(caller);
    const name = `${profile.first_name} ${profile.last_name}`.trim();
    const id = await this.stripe.createCustomer(userId, profile.email, name);
    return (await this.billing.saveCustomer(userId, id)).stripeCustomerId;
  }

  /** What /profile and /membership show. */
  async view(userId: string, at = new Date()): Promise<MembershipView> {
    const subscriptions = await this.billing.subscriptionsOf(userId);
    const grants = await this.billing.activeGrants(userId, at);
    const entitlement = await this.billing.entitlement(userId);
    const plan = entitlement?.plan ?? 'free';
    const current: Subscription | undefined =
      subscriptions.find((s) => s.plan === plan && subscriptionEntitles(s, at)) ??
      subscriptions.find((s) => LIVE.has(s.status)) ??
      subscriptions.find((s) => s.status === 'incomplete');
    const grant = grants[0];
    const base = { plan, plan_name: PLAN_NAMES[plan], payments_configured: this.stripe.configured, granted_until: grant ? grant.endsAt.toISOString() : null };
    if (!current) {
      return { ...base, status: 'none', mode: null, price_cents: 0, autopay: false, current_period_end: null, cancel_at_period_end: false, grace_until: null };
    }
    const price = current.plan === 'free' ? null : this.catalogue.plans.of(current.plan, current.mode);
    return {
      ...base,
      status: viewStatus(current.status),
      mode: current.mode,
      price_cents: price?.amountCents ?? 0,
      autopay: LIVE.has(current.status) && !current.cancelAtPeriodEnd,
      current_period_end: current.currentPeriodEnd?.toISOString() ?? null,
      cancel_at_period_end: current.cancelAtPeriodEnd,
      grace_until: current.status === 'past_due' ? (current.graceUntil?.toISOString() ?? null) : null,
    };
  }
}

function viewStatus(status: string): SubscriptionState {
  if (status === 'active' || status === 'trialing') return 'active';
  if (status === 'past_due') return 'past_due';
  if (status === 'incomplete') return 'incomplete';
  return 'canceled';
}

/** The signed-in user, from the caller identity the gateway built from the verified token. */
export function requireUser(caller: CallerIdentity): string {
  if (!caller.userId) throw new DomainError('UNAUTHENTICATED', 'Please sign in again.');
  return caller.userId;
}
