import { Inject, Injectable } from '@nestjs/common';
import Stripe from 'stripe';
import { BillingConfig } from '../config';
import type { CataloguePrice } from '../services/plans';

/** The ids billing uses in Stripe for the catalogue: our lookup key → Stripe's price id, and the tax rate. */
export interface StripeCatalogue {
  prices: Map<string, string>;
  taxRateId: string;
}

/** Marks the tax rate billing made (tax rates have no lookup key). */
const TAX_RATE_TAG = 'medfolio-sales-tax';

/**
 * The only I/O towards Stripe (the `stripe` package). Absent key: `configured` is false and every
 * call throws, so the services check `configured` first. STRIPE_API_BASE points it at stripe-mock.
 */
@Injectable()
export class StripeRepository {
  private readonly client: Stripe | null;
  private readonly webhookClient: Stripe;

  constructor(@Inject(BillingConfig) config: BillingConfig) {
    this.client = config.stripeSecretKey ? new Stripe(config.stripeSecretKey, { ...apiBase(config.stripeApiBase), maxNetworkRetries: 2, timeout: 20_000, telemetry: false }) : null;
    // Signature checks need no key; a client without one still verifies webhooks.
    this.webhookClient = this.client ?? new Stripe('sk_test_unconfigured', { telemetry: false });
  }

  get configured(): boolean {
    return this.client !== null;
  }

  private get stripe(): Stripe {
    if (!this.client) throw new Error('Stripe is not configured (STRIPE_SECRET_KEY)');
    return this.client;
  }

  /**
   * Finds or creates each price by its lookup key (and the product it belongs to), and the tax
   * rate: safe to run any number of times. A lookup key whose Stripe price has another amount
   * gets a new price, which takes the key over (`transfer_lookup_key`).
   */
  async ensureCatalogue(prices: readonly CataloguePrice[], taxPercent: number, names: Record<string, string>): Promise<StripeCatalogue & { created: string[] }> {
    const created: string[] = [];
    const found = await this.stripe.prices.list({ lookup_keys: prices.map((p) => p.lookupKey), active: true, limit: 100 });
    const byKey = new Map(found.data.filter((p) => p.lookup_key).map((p) => [p.lookup_key as string, p]));
    const ids = new Map<string, string>();
    for (const price of prices) {
      const existing = byKey.get(price.lookupKey);
      if (existing && existing.unit_amount === price.amountCents && existing.currency === 'usd' && existing.recurring?.interval === interval(price)) {
        ids.set(price.lookupKey, existing.id);
        continue;
      }
      const productId = `medfolio_${price.plan}`;
      await this.ensureProduct(productId, names[price.plan] ?? price.plan);
      const made = await this.stripe.prices.create(
        {
          product: productId,
          currency: 'usd',
          unit_amount: price.amountCents,
          recurring: { interval: interval(price) },
          lookup_key: price.lookupKey,
          transfer_lookup_key: true,
          tax_behavior: 'exclusive',
          metadata: { plan: price.plan, mode: price.mode },
        },
        { idempotencyKey: `medfolio-price-${price.lookupKey}-${price.amountCents}` },
      );
      created.push(`price ${price.lookupKey}`);
      ids.set(price.lookupKey, made.id);
    }
    const rates = await this.stripe.taxRates.list({ active: true, limit: 100 });
    let rate = rates.data.find((r) => r.metadata?.['medfolio'] === TAX_RATE_TAG && r.percentage === taxPercent && !r.inclusive);
    if (!rate) {
      rate = await this.stripe.taxRates.create(
        { display_name: 'Sales tax', percentage: taxPercent, inclusive: false, metadata: { medfolio: TAX_RATE_TAG } },
        { idempotencyKey: `medfolio-tax-${taxPercent}` },
      );
      created.push(`tax rate ${taxPercent}%`);
    }
    return { prices: ids, taxRateId: rate.id, created };
  }

  private async ensureProduct(id: string, name: string): Promise<void> {
    try {
      await this.stripe.products.retrieve(id);
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError) || error.statusCode !== 404) throw error;
      await this.stripe.products.create({ id, name: `Medfolio ${name}` }, { idempotencyKey: `medfolio-product-${id}` });
    }
  }

  /** One customer per user: the idempotency key makes a retried creation return the same one. */
  async createCustomer(userId: string, email: string, name: string): Promise<string> {
    const customer = await this.stripe.customers.create({ email, name, metadata: { user_id: userId } }, { idempotencyKey: `medfolio-customer-${userId}` });
    return customer.id;
  }

  /**
   * A subscription whose first invoice waits for the card (default_incomplete): the answer
   * carries the invoice's confirmation secret for Stripe.js.
   */
  async createSubscription(input: { customerId: string; stripePriceId: string; taxRateId: string; userId: string; plan: string; mode: string }): Promise<{
    id: string;
    status: string;
    itemId: string | null;
    clientSecret: string;
    currentPeriodEnd: number | null;
  }> {
    const subscription = await this.stripe.subscriptions.create({
      customer: input.customerId,
      items: [{ price: input.stripePriceId, tax_rates: [input.taxRateId] }],
      payment_behavior: 'default_incomplete',
      payment_settings: { save_default_payment_method: 'on_subscription' },
      expand: ['latest_invoice.confirmation_secret'],
      metadata: { user_id: input.userId, plan: input.plan, mode: input.mode },
    });
    const invoice = subscription.latest_invoice;
    const secret = invoice && typeof invoice === 'object' ? (invoice.confirmation_secret?.client_secret ?? '') : '';
    const item = subscription.items?.data?.[0];
    return { id: subscription.id, status: subscription.status, itemId: item?.id ?? null, clientSecret: secret, currentPeriodEnd: item?.current_period_end ?? null };
  }

  /**
   * A plan change, settled at once: the prorated difference is invoiced and charged now
   * (`always_invoice`), and the new price applies only once that invoice is paid
   * (`pending_if_incomplete`). With `create_prorations` the difference would only be pending invoice
   * items for the next renewal invoice: an upgrade followed by a cancel at the period end gets no
   * renewal invoice, and Stripe stops automatic collection of a cancelled subscription's invoices, so
   * the upgraded plan could be used for the rest of the period unpaid. A downgrade's negative
   * difference becomes a credit on the customer's balance.
   *
   * Pending updates accept only the item's price (the item keeps its tax rate, set at creation) and
   * not `cancel_at_period_end`, so resuming a cancelled plan is a separate call (`setCancelAtPeriodEnd`).
   * `applied` is false when the payment needs the customer (a declined card or 3-D Secure): the
   * subscription is unchanged, with a `pending_update`, and `clientSecret` is the invoice's payment
   * for Stripe.js to confirm; it expires on its own if never paid.
   */
  async changePrice(subscriptionId: string, itemId: string, stripePriceId: string): Promise<{ applied: boolean; clientSecret: string | null }> {
    const subscription = await this.stripe.subscriptions.update(subscriptionId, {
      items: [{ id: itemId, price: stripePriceId }],
      proration_behavior: 'always_invoice',
      payment_behavior: 'pending_if_incomplete',
      expand: ['latest_invoice.confirmation_secret'],
    });
    if (!subscription.pending_update) return { applied: true, clientSecret: null };
    const invoice = subscription.latest_invoice;
    const secret = invoice && typeof invoice === 'object' ? (invoice.confirmation_secret?.client_secret || null) : null;
    return { applied: false, clientSecret: secret };
  }

  async setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): Promise<void> {
    await this.stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: cancel });
  }

  /** A credit on the customer's next invoices (a negative balance), once per key. */
  async credit(customerId: string, amountCents: number, description: string, idempotencyKey: string): Promise<void> {
    await this.stripe.customers.createBalanceTransaction(customerId, { amount: -amountCents, currency: 'usd', description }, { idempotencyKey });
  }

  /** Verifies the signature (HMAC-SHA256 with the endpoint secret, 300 s tolerance) and parses the event. */
  constructEvent(payload: string, signature: string, secret: string, toleranceSeconds = 300): Stripe.Event {
    return this.webhookClient.webhooks.constructEvent(payload, signature, secret, toleranceSeconds);
  }

}

function interval(price: CataloguePrice): 'month' | 'year' {
  return price.mode === 'monthly' ? 'month' : 'year';
}

function apiBase(url: string | undefined): { host?: string; port?: number; protocol?: 'http' | 'https' } {
  if (!url) return {};
  const parsed = new URL(url);
  const protocol = parsed.protocol === 'http:' ? 'http' : 'https';
  return { host: parsed.hostname, port: Number(parsed.port || (protocol === 'http' ? 80 : 443)), protocol };
}
