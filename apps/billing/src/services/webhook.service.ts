import { Inject, Injectable, Logger } from '@nestjs/common';
import type Stripe from 'stripe';
import type { EntityManager } from 'typeorm';
import { BILLING_MESSAGES, BILLING_MODES, DomainError, PAID_PLAN_IDS, PLAN_NAMES, type BillingMode, type PaidPlanId, type WebhookDto, type WebhookReply } from '@medfolio/contracts';
import { ProcessedMessages } from '@medfolio/messaging/outbox';
import { BillingConfig } from '../config';
import type { Subscription } from '../entities';
import { BillingRepository } from '../repositories/billing.repository';
import { ServicesRepository } from '../repositories/services.repository';
import { StripeRepository } from '../repositories/stripe.repository';
import { CatalogueService } from './catalogue.service';
import { isNewer } from './entitlements';
import { EntitlementsService } from './entitlements.service';

/** Stripe allows this much clock difference between its signature and our check (seconds). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** The consumer name of Stripe's events in the service's record of processed messages. */
const STRIPE_WEBHOOK = 'stripe-webhook';

const SUBSCRIPTION_EVENTS = new Set(['customer.subscription.created', 'customer.subscription.updated', 'customer.subscription.deleted', 'customer.subscription.paused', 'customer.subscription.resumed']);

/**
 * Stripe's webhooks: the signature is checked, then each event is handled once (its id recorded in
 * the same transaction as its effect), a subscription's state comes from the newest object (never
 * from arrival order), and types billing does not act on are acknowledged.
 */
@Injectable()
export class WebhookService {
  private readonly logger = new Logger(WebhookService.name);

  constructor(
    @Inject(BillingConfig) private readonly config: BillingConfig,
    @Inject(ProcessedMessages) private readonly processed: ProcessedMessages,
    @Inject(StripeRepository) private readonly stripe: StripeRepository,
    @Inject(BillingRepository) private readonly billing: BillingRepository,
    @Inject(ServicesRepository) private readonly services: ServicesRepository,
    @Inject(CatalogueService) private readonly catalogue: CatalogueService,
    @Inject(EntitlementsService) private readonly entitlements: EntitlementsService,
  ) {}

  async receive(dto: WebhookDto): Promise<WebhookReply> {
    const secret = this.config.stripeWebhookSecret;
    if (!secret) throw new DomainError('UNAVAILABLE', BILLING_MESSAGES.notConfigured);
    let event: Stripe.Event;
    try {
      event = this.stripe.constructEvent(dto.payload, dto.signature, secret, WEBHOOK_TOLERANCE_SECONDS);
    } catch {
      throw new DomainError('VALIDATION_FAILED', BILLING_MESSAGES.badSignature);
    }
    let published = false;
    let outcome: WebhookReply['outcome'] = 'processed';
    const ran = await this.processed.once(STRIPE_WEBHOOK, event.id, async (manager) => {
      const result = await this.apply(manager, event);
      published = result.published;
      if (!result.acted) outcome = 'ignored';
    });
    if (published) this.entitlements.published();
    if (!ran) outcome = 'duplicate';
    this.logger.log({ eventId: event.id, type: event.type, outcome }, 'stripe webhook');
    return { received: true, outcome };
  }

  private async apply(manager: EntityManager, event: Stripe.Event): Promise<{ acted: boolean; published: boolean }> {
    if (SUBSCRIPTION_EVENTS.has(event.type)) {
      return this.applySubscription(manager, event.data.object as Stripe.Subscription, event.created);
    }
    if (event.type === 'invoice.paid') return this.invoicePaid(manager, event.data.object as Stripe.Invoice, event.id);
    if (event.type === 'invoice.payment_failed') return this.paymentFailed(manager, event.data.object as Stripe.Invoice, event);
    return { acted: false, published: false };
  }

  /** The subscription object of an event, applied only if it is newer than what is stored. */
  private async applySubscription(manager: EntityManager, object: Stripe.Subscription, created: number): Promise<{ acted: boolean; published: boolean }> {
    const stored = await this.billing.lockSubscription(manager, object.id);
    const customerId = typeof object.customer === 'string' ? object.customer : object.customer.id;
    const userId = stored?.userId ?? (await this.billing.userOfCustomer(customerId, manager))?.userId ?? object.metadata?.['user_id'];
    if (!userId) {
      this.logger.warn({ subscription: object.id }, 'subscription of no known user: ignored');
      return { acted: false, published: false };
    }
    if (!isNewer(stored, created, object.status)) return { acted: true, published: false };
    const item = object.items?.data?.[0];
    const plan = this.planOf(item?.price, object.metadata) ?? (stored ? { plan: stored.plan as PaidPlanId, mode: stored.mode } : null);
    if (!plan) {
      this.logger.warn({ subscription: object.id }, 'subscription with a price billing does not sell: ignored');
      return { acted: false, published: false };
    }
    const row: Partial<Subscription> & { id: string } = {
      id: object.id,
      userId,
      stripeCustomerId: customerId,
      status: object.status,
      plan: plan.plan,
      mode: plan.mode,
      itemId: item?.id ?? stored?.itemId ?? null,
      currentPeriodEnd: item?.current_period_end ? new Date(item.current_period_end * 1000) : (stored?.currentPeriodEnd ?? null),
      cancelAtPeriodEnd: Boolean(object.cancel_at_period_end),
      graceUntil: object.status === 'past_due' ? (stored?.graceUntil ?? this.graceFrom(created)) : null,
      stateAt: created,
    };
    await this.billing.saveSubscription(row, manager);
    const { changed } = await this.entitlements.recompute(manager, userId);
    return { acted: true, published: changed };
  }

  /** Lookup key first (our price id), then the price's own metadata, then the subscription's. */
  private planOf(price: Stripe.Price | undefined, metadata: Stripe.Metadata | null | undefined): { plan: PaidPlanId; mode: BillingMode } | null {
    const byKey = price?.lookup_key ? this.catalogue.plans.find(price.lookup_key) : null;
    if (byKey) return { plan: byKey.plan, mode: byKey.mode };
    for (const source of [price?.metadata, metadata]) {
      const plan = source?.['plan'];
      const mode = source?.['mode'];
      if (PAID_PLAN_IDS.includes(plan as PaidPlanId) && (BILLING_MODES as readonly string[]).includes(mode ?? '')) return { plan: plan as PaidPlanId, mode: mode as BillingMode };
    }
    return null;
  }

  private graceFrom(createdSeconds: number): Date {
    return new Date(createdSeconds * 1000 + this.config.graceDays * 86_400_000);
  }

  /** invoice.paid → a receipt e-mail (idempotent per invoice, so a retried delivery sends one). */
  private async invoicePaid(manager: EntityManager, invoice: Stripe.Invoice, eventId: string): Promise<{ acted: boolean; published: boolean }> {
    const found = await this.invoiceOwner(manager, invoice);
    if (!found) return { acted: false, published: false };
    const amount = formatCents(invoice.amount_paid ?? invoice.total ?? 0);
    await this.services.email(systemCaller(found.userId, eventId), found.email, 'billing-receipt', {
      plan: found.planName,
      amount,
      invoice_number: invoice.number ?? invoice.id ?? '',
      invoice_url: invoice.hosted_invoice_url ?? '',
    }, `billing-receipt-${invoice.id}`);
    return { acted: true, published: false };
  }

  /** invoice.payment_failed → an e-mail and the grace period (the plan stays until it ends). */
  private async paymentFailed(manager: EntityManager, invoice: Stripe.Invoice, event: Stripe.Event): Promise<{ acted: boolean; published: boolean }> {
    const found = await this.invoiceOwner(manager, invoice);
    if (!found) return { acted: false, published: false };
    let graceUntil = this.graceFrom(event.created);
    let published = false;
    if (found.subscription) {
      const locked = await this.billing.lockSubscription(manager, found.subscription.id);
      if (locked) {
        graceUntil = locked.graceUntil ?? graceUntil;
        if (locked.status === 'active' && isNewer(locked, event.created, 'past_due')) {
          await this.billing.saveSubscription({ id: locked.id, status: 'past_due', graceUntil, stateAt: event.created }, manager);
        } else if (!locked.graceUntil) {
          await this.billing.saveSubscription({ id: locked.id, graceUntil }, manager);
        }
        published = (await this.entitlements.recompute(manager, locked.userId)).changed;
      }
    }
    await this.services.email(systemCaller(found.userId, event.id), found.email, 'payment-failed', {
      plan: found.planName,
      amount: formatCents(invoice.amount_due ?? 0),
      grace_until: graceUntil.toISOString().slice(0, 10),
      membership_url: `${this.config.publicBaseUrl.replace(/\/$/, '')}/membership`,
    }, `billing-payment-failed-${invoice.id}-${invoice.attempt_count ?? 0}`);
    return { acted: true, published };
  }

  private async invoiceOwner(manager: EntityManager, invoice: Stripe.Invoice): Promise<{ userId: string; email: string; planName: string; subscription: Subscription | null } | null> {
    const customerId = typeof invoice.customer === 'string' ? invoice.customer : invoice.customer?.id;
    const subscriptionRef = invoice.parent?.subscription_details?.subscription;
    const subscriptionId = typeof subscriptionRef === 'string' ? subscriptionRef : subscriptionRef?.id;
    const subscription = subscriptionId ? await this.billing.subscription(subscriptionId, manager) : null;
    const userId = subscription?.userId ?? (customerId ? (await this.billing.userOfCustomer(customerId, manager))?.userId : undefined);
    const email = invoice.customer_email;
    if (!userId || !email) {
      this.logger.warn({ invoice: invoice.id }, 'invoice of no known user or without an e-mail: ignored');
      return null;
    }
    return { userId, email, planName: subscription ? PLAN_NAMES[subscription.plan] : 'Medfolio', subscription };
  }
}

function formatCents(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

/** Billing acting for a user on Stripe's word (no request of theirs): the caller other services see. */
export function systemCaller(userId: string, correlationId: string) {
  return { userId, roles: ['system'], correlationId };
}
