import { randomBytes, randomUUID } from 'node:crypto';
import type { INestMicroservice } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Client } from 'pg';
import Stripe from 'stripe';
import { DataSource } from 'typeorm';
import {
  BILLING_MESSAGES,
  BILLING_SUBJECTS,
  IDENTITY_SUBJECTS,
  NOTIFICATIONS_SUBJECTS,
  STREAMS,
  SUBJECTS,
  type CallerIdentity,
  type EntitlementChangedEvent,
  type SendEmailDto,
} from '@medfolio/contracts';
import { createRpcClient, InProcessBroker, InProcessEventBus, InProcessServer, type EventEnvelope, type RpcClient } from '@medfolio/messaging';
import { recordStripeRequests, useStripeMock, type StripeMock, type StripeRecorder } from '@medfolio/testing';
import { BillingAppModule } from './app.module';
import { BillingConfig } from './config';
import { ReferralService } from './services/referral.service';
import { SweepService } from './services/sweep.service';

/**
 * The whole service as it runs (kit, migrations, outbox relay, audit client, handlers, identity's
 * events) on its own fresh PostgreSQL database, called over the in-process request/reply transport as
 * the gateway calls it, against stripe-mock behind a recording proxy. stripe-mock keeps nothing, so
 * these tests assert the requests billing sends and how it uses the answers; subscription states
 * arrive as signed webhooks, as they do from Stripe.
 */
const adminUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const WEBHOOK_SECRET = `whsec_${randomBytes(16).toString('hex')}`;
const signer = new Stripe('sk_test_signer');

describe('billing service (PostgreSQL, stripe-mock, request/reply)', () => {
  const run = randomBytes(4).toString('hex');
  const database = `billing_it_${run}`;
  let app: INestMicroservice;
  let rpc: RpcClient;
  let bus: InProcessEventBus;
  let mock: StripeMock;
  let stripe: StripeRecorder;
  const entitlements: EntitlementChangedEvent[] = [];
  const mail: SendEmailDto[] = [];
  const profiles = new Map<string, { email: string; first_name: string }>();
  const caller = (userId: string): CallerIdentity => ({ userId, roles: ['patient'], correlationId: randomUUID() });

  async function admin(sql: string): Promise<void> {
    const client = new Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${database}`);
    mock = await useStripeMock();
    stripe = await recordStripeRequests(mock.url);
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    const config = Object.assign(new BillingConfig(), {
      databaseUrl: url.toString(),
      databasePoolSize: 4,
      stripeSecretKey: 'sk_test_123billingint',
      stripeWebhookSecret: WEBHOOK_SECRET,
      stripeApiBase: stripe.url,
      pricePlus: '24.99/240',
      invitesPerDay: 3,
      sweepIntervalMs: 3_600_000,
      publicBaseUrl: 'https://app.medfolio.test',
    });
    bus = new InProcessEventBus();
    // Stand-ins for identity's profile call and notifications' e-mail queue (their own tests cover them).
    InProcessBroker.register(IDENTITY_SUBJECTS.getProfile, async (_data, context) => {
      const who = JSON.parse(String(context.getHeaders().get('x-caller'))) as CallerIdentity;
      const profile = profiles.get(who.userId ?? '') ?? { email: `${who.userId}@example.com`, first_name: 'Test' };
      return { id: who.userId, last_name: '', phone: '', profile_picture: null, date_of_birth: null, email_verified: true, ...profile };
    });
    InProcessBroker.register(NOTIFICATIONS_SUBJECTS.sendEmail, async (data) => {
      mail.push(data as SendEmailDto);
      return { id: randomUUID(), state: 'queued' };
    });
    const moduleRef = await Test.createTestingModule({ imports: [BillingAppModule.register({ config, eventBus: bus, http: false })] }).compile();
    app = moduleRef.createNestMicroservice({ strategy: new InProcessServer(), logger: ['error'] });
    await app.listen();
    await bus.consume({ stream: STREAMS.BILLING.name, durable: 'test-entitlements', filterSubjects: [BILLING_SUBJECTS.entitlementChanged] }, async (event: EventEnvelope) => {
      entitlements.push(event.data as EntitlementChangedEvent);
    });
    rpc = createRpcClient('billing-int-test', { timeoutMs: 10_000 });
  });

  afterAll(async () => {
    await rpc?.close();
    await app?.close();
    await bus?.close();
    InProcessBroker.unregister(IDENTITY_SUBJECTS.getProfile);
    InProcessBroker.unregister(NOTIFICATIONS_SUBJECTS.sendEmail);
    await stripe?.stop();
    await mock?.stop();
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  });

  /** A webhook delivery as Stripe makes it: the JSON body and its Stripe-Signature header. */
  function signed(event: Record<string, unknown>, timestamp = Math.floor(Date.now() / 1000)) {
    const payload = JSON.stringify(event);
    return { payload, signature: signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp }) };
  }

  function subscriptionEvent(type: string, created: number, object: { id: string; customer: string; status: string; lookupKey: string; cancelAtPeriodEnd?: boolean; userId?: string }) {
    return {
      id: `evt_${randomBytes(8).toString('hex')}`,
      object: 'event',
      type,
      created,
      data: {
        object: {
          id: object.id,
          object: 'subscription',
          customer: object.customer,
          status: object.status,
          cancel_at_period_end: object.cancelAtPeriodEnd ?? false,
          metadata: object.userId ? { user_id: object.userId } : {},
          items: { object: 'list', data: [{ id: `si_${object.id}`, current_period_end: created + 30 * 86400, price: { id: 'price_x', lookup_key: object.lookupKey, metadata: {} } }] },
        },
      },
    };
  }

  /** Waits until the outbox relay has published what the last webhook queued. */
  async function entitlementOf(userId: string, plan: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!entitlements.some((e) => e.user_id === userId && e.plan === plan)) {
      if (Date.now() > deadline) throw new Error(`no ${plan} entitlement for ${userId}: ${JSON.stringify(entitlements.filter((e) => e.user_id === userId))}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** A user who checked out: the subscription and customer ids stripe-mock answered. */
  async function checkedOut(userId: string, price = 'price_basic_monthly', tier = 'basic', mode = 'monthly') {
    const before = stripe.requests.length;
    await rpc.send(BILLING_SUBJECTS.checkout, { price_id: price, tier: tier as 'basic', mode: mode as 'monthly' }, caller(userId));
    const created = stripe.requests.slice(before).find((r) => r.method === 'POST' && r.path === '/v1/subscriptions')!;
    return { subscriptionId: String(created.response['id']), customerId: created.params['customer']! };
  }

  it('is ready: database and messaging up', async () => {
    await expect(rpc.send(SUBJECTS.health('billing'), {}, caller('system'))).resolves.toMatchObject({ status: 'ok' });
  });

  it('lists the plans from configuration with payments configured', async () => {
    const reply = await rpc.send(BILLING_SUBJECTS.plans, {}, caller('anyone'));
    expect(reply.payments_configured).toBe(true);
    expect(reply.tax_percent).toBe(8);
    expect(reply.plans.map((p) => [p.id, p.name, p.monthly_cents, p.yearly_cents])).toEqual([
      ['free', 'Free', 0, 0],
      ['basic', 'Basic', 800, 8000],
      ['standard', 'Standard', 1200, 12000],
      ['plus', 'Plus', 2499, 24000],
      ['pro', 'Family', 4900, 49000],
    ]);
  });

  it('checkout: one customer per user, a default_incomplete subscription with the 8% tax rate, and the client secret', async () => {
    const userId = randomUUID();
    profiles.set(userId, { email: 'ada@example.com', first_name: 'Ada' });
    const before = stripe.requests.length;
    const reply = await rpc.send(BILLING_SUBJECTS.checkout, { price_id: 'price_basic_monthly', tier: 'basic', mode: 'monthly' }, caller(userId));
    const sent = stripe.requests.slice(before);
    // The catalogue: prices found by lookup key, the tax rate made at 8%.
    const lookup = sent.find((r) => r.method === 'GET' && r.path === '/v1/prices')!;
    expect(Object.entries(lookup.params).filter(([k]) => k.startsWith('lookup_keys')).map(([, v]) => v)).toContain('price_basic_monthly');
    expect(sent.find((r) => r.method === 'POST' && r.path === '/v1/tax_rates')?.params).toMatchObject({ percentage: '8', inclusive: 'false' });
    const customer = sent.find((r) => r.method === 'POST' && r.path === '/v1/customers')!;
    expect(customer.params).toMatchObject({ email: 'ada@example.com', name: 'Ada', 'metadata[user_id]': userId });
    expect(customer.idempotencyKey).toBe(`medfolio-customer-${userId}`);
    const subscription = sent.find((r) => r.method === 'POST' && r.path === '/v1/subscriptions')!;
    const taxRateId = String(sent.find((r) => r.method === 'POST' && r.path === '/v1/tax_rates')!.response['id']);
    expect(subscription.params).toMatchObject({
      customer: String(customer.response['id']),
      payment_behavior: 'default_incomplete',
      'items[0][tax_rates][0]': taxRateId,
      'expand[0]': 'latest_invoice.confirmation_secret',
      'metadata[user_id]': userId,
    });
    expect(subscription.params['items[0][price]']).toMatch(/^price_/);
    const secret = (subscription.response['latest_invoice'] as { confirmation_secret: { client_secret: string } }).confirmation_secret.client_secret;
    expect(reply).toMatchObject({ id: secret, subtotal_cents: 800, tax_cents: 64, total_cents: 864 });

    // A second try (the first payment was abandoned): the same customer, a new subscription, no plan yet.
    const again = stripe.requests.length;
    const plus = await rpc.send(BILLING_SUBJECTS.checkout, { price_id: 'price_plus_monthly', tier: 'plus', mode: 'monthly' }, caller(userId));
    expect(plus).toMatchObject({ subtotal_cents: 2499, tax_cents: 200, total_cents: 2699 }); // 24.99 × 1.08 = 26.9892
    expect(stripe.requests.slice(again).filter((r) => r.path === '/v1/customers')).toHaveLength(0);
    expect(stripe.requests.slice(again).filter((r) => r.path === '/v1/prices' || r.path === '/v1/tax_rates')).toHaveLength(0);
    await expect(rpc.send(BILLING_SUBJECTS.membership, {}, caller(userId))).resolves.toMatchObject({ plan: 'free', status: 'incomplete' });
  });

  it("refuses an unknown price or one that is not the tier's with 'Invalid plan selected.', and calls Stripe for nothing", async () => {
    const before = stripe.requests.length;
    for (const payload of [
      { price_id: 'price_gold_monthly', tier: 'basic', mode: 'monthly' },
      { price_id: 'price_basic_monthly', tier: 'plus', mode: 'monthly' },
      { price_id: 'price_basic_monthly', tier: 'basic', mode: 'yearly' },
      { price_id: 'anything', tier: 'basic', mode: 'monthly' },
    ]) {
      await expect(rpc.send(BILLING_SUBJECTS.checkout, payload as never, caller(randomUUID()))).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: BILLING_MESSAGES.invalidPlan });
    }
    expect(stripe.requests.length).toBe(before);
  });

  describe('webhooks', () => {
    it('refuses a bad signature and a replay outside the 300 s tolerance, and records nothing', async () => {
      const userId = randomUUID();
      const { subscriptionId, customerId } = await checkedOut(userId);
      const event = subscriptionEvent('customer.subscription.updated', Math.floor(Date.now() / 1000), { id: subscriptionId, customer: customerId, status: 'active', lookupKey: 'price_basic_monthly' });
      const good = signed(event);
      const forged = { payload: good.payload, signature: new Stripe('sk_test_x').webhooks.generateTestHeaderString({ payload: good.payload, secret: 'whsec_wrong' }) };
      const tampered = { payload: good.payload.replace('"active"', '"trialing"'), signature: good.signature };
      const replayed = signed(event, Math.floor(Date.now() / 1000) - 301);
      for (const delivery of [forged, tampered, replayed, { payload: good.payload, signature: '' }]) {
        await expect(rpc.send(BILLING_SUBJECTS.webhook, delivery, caller('stripe'))).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: BILLING_MESSAGES.badSignature });
      }
      await expect(rpc.send(BILLING_SUBJECTS.membership, {}, caller(userId))).resolves.toMatchObject({ plan: 'free' });
      // Within the tolerance the same event is taken.
      await expect(rpc.send(BILLING_SUBJECTS.webhook, signed(event, Math.floor(Date.now() / 1000) - 250), caller('stripe'))).resolves.toEqual({ received: true, outcome: 'processed' });
    });

    it('an active subscription raises the entitlement once, however often the event comes; an unknown type is acknowledged', async () => {
      const userId = randomUUID();
      const { subscriptionId, customerId } = await checkedOut(userId);
      const delivery = signed(subscriptionEvent('customer.subscription.updated', Math.floor(Date.now() / 1000), { id: subscriptionId, customer: customerId, status: 'active', lookupKey: 'price_basic_monthly' }));
      await expect(rpc.send(BILLING_SUBJECTS.webhook, delivery, caller('stripe'))).resolves.toEqual({ received: true, outcome: 'processed' });
      await expect(rpc.send(BILLING_SUBJECTS.webhook, delivery, caller('stripe'))).resolves.toEqual({ received: true, outcome: 'duplicate' });
      await entitlementOf(userId, 'basic');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(entitlements.filter((e) => e.user_id === userId)).toHaveLength(1);
      const membership = await rpc.send(BILLING_SUBJECTS.membership, {}, caller(userId));
      expect(membership).toMatchObject({ plan: 'basic', plan_name: 'Basic', status: 'active', mode: 'monthly', price_cents: 800, autopay: true, cancel_at_period_end: false });
      expect(membership.current_period_end).not.toBeNull();

      const unknown = signed({ id: `evt_${randomBytes(8).toString('hex')}`, object: 'event', type: 'charge.dispute.funds_reinstated', created: Math.floor(Date.now() / 1000), data: { object: { id: 'du_1' } } });
      await expect(rpc.send(BILLING_SUBJECTS.webhook, unknown, caller('stripe'))).resolves.toEqual({ received: true, outcome: 'ignored' });
    });

    it('out of order: an older event arriving last changes nothing; the newest object decides', async () => {
      const userId = randomUUID();
      const { subscriptionId, customerId } = await checkedOut(userId, 'price_standard_yearly', 'standard', 'yearly');
      const t = Math.floor(Date.now() / 1000);
      const sub = { id: subscriptionId, customer: customerId, lookupKey: 'price_standard_yearly' };
      // Stripe sent created (incomplete) at t, updated (active) at t+2, updated (canceled at period end) at t+5; they arrive reversed.
      await rpc.send(BILLING_SUBJECTS.webhook, signed(subscriptionEvent('customer.subscription.updated', t + 5, { ...sub, status: 'active', cancelAtPeriodEnd: true })), caller('stripe'));
      await rpc.send(BILLING_SUBJECTS.webhook, signed(subscriptionEvent('customer.subscription.updated', t + 2, { ...sub, status: 'active' })), caller('stripe'));
      await rpc.send(BILLING_SUBJECTS.webhook, signed(subscriptionEvent('customer.subscription.created', t, { ...sub, status: 'incomplete' })), caller('stripe'));
      await expect(rpc.send(BILLING_SUBJECTS.membership, {}, caller(userId))).resolves.toMatchObject({ plan: 'standard', status: 'active', cancel_at_period_end: true, autopay: false });
      // Then it ends: deleted (canceled) is newer, so the plan goes back to Free.
      await rpc.send(BILLING_SUBJECTS.webhook, signed(subscriptionEvent('customer.subscription.deleted', t + 9, { ...sub, status: 'canceled', cancelAtPeriodEnd: true })), caller('stripe'));
      await entitlementOf(userId, 'free');
      expect(entitlements.filter((e) => e.user_id === userId).map((e) => e.plan)).toEqual(['standard', 'free']);
    });

    it('invoice.paid sends one receipt; invoice.payment_failed e-mails and keeps the plan for the grace period, then the sweep ends it', async () => {
      const userId = randomUUID();
      const { subscriptionId, customerId } = await checkedOut(userId);
      const t = Math.floor(Date.now() / 1000);
      await rpc.send(BILLING_SUBJECTS.webhook, signed(subscriptionEvent('customer.subscription.updated', t, { id: subscriptionId, customer: customerId, status: 'active', lookupKey: 'price_basic_monthly' })), caller('stripe'));
      const invoice = (type: string, extra: Record<string, unknown> = {}) => ({
        id: `evt_${randomBytes(8).toString('hex')}`,
        object: 'event',
        type,
        created: t + 1,
        data: { object: { id: `in_${subscriptionId}`, object: 'invoice', customer: customerId, customer_email: 'payer@example.com', amount_paid: 864, amount_due: 864, total: 864, number: 'MF-0001', hosted_invoice_url: 'https://invoice.stripe.com/i/test', attempt_count: 1, parent: { subscription_details: { subscription: subscriptionId } }, ...extra } },
      });
      const paid = signed(invoice('invoice.paid'));
      await rpc.send(BILLING_SUBJECTS.webhook, paid, caller('stripe'));
      await rpc.send(BILLING_SUBJECTS.webhook, paid, caller('stripe'));
      const receipts = mail.filter((m) => m.template === 'billing-receipt' && m.to === 'payer@example.com');
      expect(receipts).toHaveLength(1);
      expect(receipts[0]!.data).toMatchObject({ plan: 'Basic', amount: '$8.64', invoice_number: 'MF-0001' });

      await rpc.send(BILLING_SUBJECTS.webhook, signed(invoice('invoice.payment_failed')), caller('stripe'));
      const failed = mail.find((m) => m.template === 'payment-failed' && m.idempotencyKey?.includes(subscriptionId));
      expect(failed?.data).toMatchObject({ plan: 'Basic', membership_url: 'https://app.medfolio.test/membership' });
      const membership = await rpc.send(BILLING_SUBJECTS.membership, {}, caller(userId));
      expect(membership).toMatchObject({ plan: 'basic', status: 'past_due' });
      const graceUntil = new Date(membership.grace_until!);
      expect(graceUntil.getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);
      const sweep = app.get(SweepService);
      await expect(sweep.pass(new Date(graceUntil.getTime() - 60_000))).resolves.toBe(0);
      await expect(sweep.pass(new Date(graceUntil.getTime() + 1000))).resolves.toBeGreaterThanOrEqual(1);
      await entitlementOf(userId, 'free');
    });
  });

  describe('plan changes', () => {
    // stripe-mock's subscription fixture fills every field, pending_update too: by default here the
    // prorated invoice was paid at once (no pending_update), as with a card that needs nothing more.
    const paidAtOnce = (request: { method: string; path: string }, answer: Record<string, unknown>) =>
      request.method === 'POST' && request.path.startsWith('/v1/subscriptions/') ? { ...answer, pending_update: null } : answer;
    beforeEach(() => stripe.editAnswers(paidAtOnce));
    afterEach(() => stripe.editAnswers(null));

    it('the same plan again is refused clearly; another plan is a change whose prorated difference is invoiced at once; cancel ends at the period end', async () => {
      const userId = randomUUID();
      const { subscriptionId, customerId } = await checkedOut(userId);
      await rpc.send(BILLING_SUBJECTS.webhook, signed(subscriptionEvent('customer.subscription.updated', Math.floor(Date.now() / 1000), { id: subscriptionId, customer: customerId, status: 'active', lookupKey: 'price_basic_monthly' })), caller('stripe'));
      await expect(rpc.send(BILLING_SUBJECTS.checkout, { price_id: 'price_basic_monthly', tier: 'basic', mode: 'monthly' }, caller(userId))).rejects.toMatchObject({
        code: 'CONFLICT',
        message: 'You are already on the Basic plan, billed monthly.',
      });

      const before = stripe.requests.length;
      const change = await rpc.send(BILLING_SUBJECTS.checkout, { price_id: 'price_plus_yearly', tier: 'plus', mode: 'yearly' }, caller(userId));
      expect(change).toMatchObject({ id: null, subtotal_cents: 24000, tax_cents: 1920, total_cents: 25920 });
      const updates = stripe.requests.slice(before).filter((r) => r.method === 'POST' && r.path === `/v1/subscriptions/${subscriptionId}`);
      expect(updates).toHaveLength(1);
      // The difference is invoiced and charged now, and the new price applies only once it is paid: with
      // create_prorations it would wait as pending items for a renewal that a cancel at period end never has.
      expect(updates[0]!.params).toMatchObject({
        'items[0][id]': `si_${subscriptionId}`,
        proration_behavior: 'always_invoice',
        payment_behavior: 'pending_if_incomplete',
      });
      expect(updates[0]!.params['items[0][price]']).toMatch(/^price_/);
      // Pending updates take only the item's price (the tax rate stays on the item) and no cancel_at_period_end.
      expect(Object.keys(updates[0]!.params).filter((k) => k.includes('tax_rates') || k === 'cancel_at_period_end')).toEqual([]);
      expect(stripe.requests.slice(before).filter((r) => r.path === '/v1/subscriptions')).toHaveLength(0);

      const cancelFrom = stripe.requests.length;
      const cancelled = await rpc.send(BILLING_SUBJECTS.cancel, {}, caller(userId));
      expect(stripe.requests.slice(cancelFrom).map((r) => [r.method, r.path, r.params['cancel_at_period_end']])).toEqual([['POST', `/v1/subscriptions/${subscriptionId}`, 'true']]);
      expect(cancelled).toMatchObject({ plan: 'basic', cancel_at_period_end: true, autopay: false });
      await expect(rpc.send(BILLING_SUBJECTS.cancel, {}, caller(userId))).rejects.toMatchObject({ code: 'CONFLICT' });
      await expect(rpc.send(BILLING_SUBJECTS.cancel, {}, caller(randomUUID()))).rejects.toMatchObject({ code: 'NOT_FOUND', message: BILLING_MESSAGES.noSubscription });
    });

    it('a change after a cancel: the plan resumes only once the prorated invoice is paid; a payment that needs the customer returns its client secret', async () => {
      const userId = randomUUID();
      const { subscriptionId, customerId } = await checkedOut(userId);
      await rpc.send(BILLING_SUBJECTS.webhook, signed(subscriptionEvent('customer.subscription.updated', Math.floor(Date.now() / 1000), { id: subscriptionId, customer: customerId, status: 'active', lookupKey: 'price_basic_monthly' })), caller('stripe'));
      await rpc.send(BILLING_SUBJECTS.cancel, {}, caller(userId));

      // The card needs 3-D Secure: Stripe keeps the change as a pending_update and the subscription as it was.
      const secret = `pi_${run}_secret_${run}`;
      stripe.editAnswers((request, answer) =>
        request.method === 'POST' && request.path === `/v1/subscriptions/${subscriptionId}`
          ? {
              ...answer,
              pending_update: { expires_at: Math.floor(Date.now() / 1000) + 82_800, subscription_items: [] },
              latest_invoice: { ...(answer['latest_invoice'] as object), confirmation_secret: { client_secret: secret, type: 'payment_intent' } },
            }
          : answer,
      );
      let before = stripe.requests.length;
      let reply = await rpc.send(BILLING_SUBJECTS.checkout, { price_id: 'price_pro_monthly', tier: 'pro', mode: 'monthly' }, caller(userId));
      stripe.editAnswers(paidAtOnce);
      let sent = stripe.requests.slice(before).filter((r) => r.method === 'POST' && r.path.startsWith('/v1/subscriptions'));
      expect(sent.map((r) => r.params['proration_behavior'] ?? `cancel_at_period_end=${r.params['cancel_at_period_end']}`)).toEqual(['always_invoice']);
      expect(sent[0]!.params).toMatchObject({ payment_behavior: 'pending_if_incomplete', 'expand[0]': 'latest_invoice.confirmation_secret' });
      expect(reply).toMatchObject({ id: secret, subtotal_cents: 4900 });
      expect(reply.message).toContain('Confirm the payment');
      // Still cancelled at the period end: the plan is not resumed for a change that was not paid.
      await expect(rpc.send(BILLING_SUBJECTS.membership, {}, caller(userId))).resolves.toMatchObject({ plan: 'basic', cancel_at_period_end: true });

      // Paid at once: the change applies, then the plan is resumed (a separate call, which pending updates need).
      before = stripe.requests.length;
      reply = await rpc.send(BILLING_SUBJECTS.checkout, { price_id: 'price_pro_monthly', tier: 'pro', mode: 'monthly' }, caller(userId));
      sent = stripe.requests.slice(before).filter((r) => r.method === 'POST' && r.path.startsWith('/v1/subscriptions'));
      expect(sent.map((r) => r.params['proration_behavior'] ?? `cancel_at_period_end=${r.params['cancel_at_period_end']}`)).toEqual(['always_invoice', 'cancel_at_period_end=false']);
      expect(reply).toMatchObject({ id: null, subtotal_cents: 4900 });
      expect(reply.message).toContain('invoiced');
      await expect(rpc.send(BILLING_SUBJECTS.membership, {}, caller(userId))).resolves.toMatchObject({ cancel_at_period_end: false });
    });
  });

  describe('referrals', () => {
    async function account(subject: string, data: Record<string, unknown>): Promise<void> {
      await bus.publish(subject, data, { msgId: randomUUID() });
    }
    /** Retries an expectation until identity's events have been consumed (10 s at most). */
    async function eventually(check: () => Promise<void>): Promise<void> {
      const deadline = Date.now() + 10_000;
      for (;;) {
        try {
          return await check();
        } catch (error) {
          if (Date.now() > deadline) throw error;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    }

    it('counts new verified accounts only: not the referrer, not an unverified invitee, not a known address, not the same invitee twice; 3 earn a month of Basic', async () => {
      const referrer = randomUUID();
      await account(IDENTITY_SUBJECTS.registered, { user_id: referrer, email: 'Rita@Example.com', first_name: 'Rita' });
      const view = await rpc.send(BILLING_SUBJECTS.referral, {}, caller(referrer));
      expect(view.code).toMatch(/^[A-Z0-9]{8}$/);
      expect(view.link).toBe(`https://app.medfolio.test/sign-up?ref=${view.code}`);
      const ref = view.code;

      // Self: the referrer's own address on a second account.
      const self = randomUUID();
      await account(IDENTITY_SUBJECTS.registered, { user_id: self, email: 'rita@example.com ', first_name: 'R', referral_code: ref });
      await account(IDENTITY_SUBJECTS.verified, { user_id: self, email: 'rita@example.com', first_name: 'R', referral_code: ref });
      // Unverified: joins, does not count.
      await account(IDENTITY_SUBJECTS.registered, { user_id: randomUUID(), email: 'lazy@example.com', first_name: 'L', referral_code: ref });
      // Two who verify; the second one's verified event is delivered twice.
      const [a, b] = [randomUUID(), randomUUID()];
      for (const [id, email] of [[a, 'ann@example.com'], [b, 'ben@example.com']] as const) {
        await account(IDENTITY_SUBJECTS.registered, { user_id: id, email, first_name: 'F', referral_code: ref });
      }
      await account(IDENTITY_SUBJECTS.verified, { user_id: a, email: 'ann@example.com', first_name: 'F', referral_code: ref });
      const twice = { user_id: b, email: 'ben@example.com', first_name: 'F', referral_code: ref };
      await bus.publish(IDENTITY_SUBJECTS.verified, twice, { msgId: 'verified-ben' });
      await bus.publish(IDENTITY_SUBJECTS.verified, twice, { msgId: 'verified-ben-again' });
      // A known address: ann again, on a new account (after deleting the first).
      const annAgain = randomUUID();
      await account(IDENTITY_SUBJECTS.registered, { user_id: annAgain, email: 'ann@example.com', first_name: 'F', referral_code: ref });
      await account(IDENTITY_SUBJECTS.verified, { user_id: annAgain, email: 'ann@example.com', first_name: 'F', referral_code: ref });
      await eventually(() => expect(rpc.send(BILLING_SUBJECTS.referral, {}, caller(referrer))).resolves.toMatchObject({ joined: 5, counted: 2, months_earned: 0, towards_next: 2 }));
      expect(entitlements.filter((e) => e.user_id === referrer)).toEqual([]);

      const c = randomUUID();
      await account(IDENTITY_SUBJECTS.registered, { user_id: c, email: 'cat@example.com', first_name: 'C', referral_code: ref });
      await account(IDENTITY_SUBJECTS.verified, { user_id: c, email: 'cat@example.com', first_name: 'C', referral_code: ref });
      await entitlementOf(referrer, 'basic');
      const after = await rpc.send(BILLING_SUBJECTS.referral, {}, caller(referrer));
      expect(after).toMatchObject({ counted: 3, months_earned: 1, towards_next: 0, credit_cents: 0 });
      const membership = await rpc.send(BILLING_SUBJECTS.membership, {}, caller(referrer));
      expect(membership.plan).toBe('basic');
      expect(new Date(membership.granted_until!).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    });

    it('a paying referrer earns a credit on the next invoice (customer balance), once', async () => {
      const referrer = randomUUID();
      const { subscriptionId, customerId } = await checkedOut(referrer, 'price_standard_monthly', 'standard', 'monthly');
      await rpc.send(BILLING_SUBJECTS.webhook, signed(subscriptionEvent('customer.subscription.updated', Math.floor(Date.now() / 1000), { id: subscriptionId, customer: customerId, status: 'active', lookupKey: 'price_standard_monthly' })), caller('stripe'));
      const { code } = await rpc.send(BILLING_SUBJECTS.referral, {}, caller(referrer));
      const before = stripe.requests.length;
      for (const n of [1, 2, 3]) {
        const id = randomUUID();
        await account(IDENTITY_SUBJECTS.registered, { user_id: id, email: `friend${n}.${referrer}@example.com`, first_name: 'F', referral_code: code });
        await account(IDENTITY_SUBJECTS.verified, { user_id: id, email: `friend${n}.${referrer}@example.com`, first_name: 'F', referral_code: code });
      }
      await eventually(() => expect(rpc.send(BILLING_SUBJECTS.referral, {}, caller(referrer))).resolves.toMatchObject({ months_earned: 1, credit_cents: 1200 }));
      const credits = stripe.requests.slice(before).filter((r) => r.method === 'POST' && r.path === `/v1/customers/${customerId}/balance_transactions`);
      expect(credits.map((r) => [r.params['amount'], r.params['currency'], r.idempotencyKey])).toEqual([['-1200', 'usd', `medfolio-referral-${referrer}-1`]]);
      expect(entitlements.filter((e) => e.user_id === referrer).map((e) => e.plan)).toEqual(['standard']);
    });

    it('invitations: the same answer for any address, no mail to a known one or twice, not to oneself, and a daily limit', async () => {
      const inviter = randomUUID();
      profiles.set(inviter, { email: 'ivy@example.com', first_name: 'Ivy' });
      const member = randomUUID();
      await account(IDENTITY_SUBJECTS.registered, { user_id: member, email: 'member@example.com', first_name: 'M' });
      const known = () => app.get(DataSource).query(`SELECT count(*)::int AS n FROM billing.accounts WHERE user_id = $1`, [member]);
      await eventually(async () => expect(await known()).toEqual([{ n: 1 }]));
      const invite = (email: string) => rpc.send(BILLING_SUBJECTS.invite, { email }, caller(inviter));
      await expect(invite('IVY@example.com')).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: BILLING_MESSAGES.inviteSelf });
      await expect(invite('new.friend@example.com')).resolves.toEqual({ message: BILLING_MESSAGES.inviteSent });
      await expect(invite('member@example.com')).resolves.toEqual({ message: BILLING_MESSAGES.inviteSent });
      await expect(invite('new.friend@example.com')).resolves.toEqual({ message: BILLING_MESSAGES.inviteSent });
      const sent = () => mail.filter((m) => m.template === 'referral-invite' && m.idempotencyKey?.includes(inviter));
      expect(sent().map((m) => m.to)).toEqual(['new.friend@example.com']);
      expect(sent()[0]!.data['signup_url']).toMatch(/^https:\/\/app\.medfolio\.test\/sign-up\?ref=[A-Z0-9]{8}$/);
      await expect(invite('third@example.com')).resolves.toEqual({ message: BILLING_MESSAGES.inviteSent });
      await expect(invite('fourth@example.com')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
      await expect(invite('not-an-address')).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: 'Invalid email' });
      await expect(rpc.send(BILLING_SUBJECTS.referral, {}, caller(inviter))).resolves.toMatchObject({ invited: 3 });
      expect(sent().map((m) => m.to)).toEqual(['new.friend@example.com', 'third@example.com']);
    });

    it('one person is one person: +tags, case and (for Gmail) dots make no new address, for counting or for inviting oneself', async () => {
      const referrer = randomUUID();
      await account(IDENTITY_SUBJECTS.registered, { user_id: referrer, email: 'dana.cho@gmail.com', first_name: 'Dana' });
      const { code } = await rpc.send(BILLING_SUBJECTS.referral, {}, caller(referrer));
      const signUp = async (email: string) => {
        const id = randomUUID();
        await account(IDENTITY_SUBJECTS.registered, { user_id: id, email, first_name: 'F', referral_code: code });
        await account(IDENTITY_SUBJECTS.verified, { user_id: id, email, first_name: 'F', referral_code: code });
        return id;
      };
      // The referrer's own address in other spellings: never a referral.
      const selves = [await signUp('dana.cho+1@gmail.com'), await signUp('DanaCho+2@googlemail.com'), await signUp('d.a.n.a.c.h.o@gmail.com')];
      // One friend, four spellings: counted once.
      const pat = [await signUp('pat@example.com'), await signUp('pat+1@example.com'), await signUp('Pat+2@Example.COM'), await signUp('PAT@example.com')];
      await eventually(() => expect(rpc.send(BILLING_SUBJECTS.referral, {}, caller(referrer))).resolves.toMatchObject({ joined: 7, counted: 1, months_earned: 0 }));
      const states = await app.get(DataSource).query(`SELECT invitee_user_id, state, reason FROM billing.referrals WHERE referrer_user_id = $1`, [referrer]);
      const of = (id: string) => (states as { invitee_user_id: string; state: string; reason: string | null }[]).find((r) => r.invitee_user_id === id);
      for (const id of selves) expect(of(id)).toMatchObject({ state: 'refused', reason: 'self' });
      expect(of(pat[0]!)).toMatchObject({ state: 'counted' });
      for (const id of pat.slice(1)) expect(of(id)!.state).toBe('refused');
      expect(entitlements.filter((e) => e.user_id === referrer)).toEqual([]);

      profiles.set(referrer, { email: 'dana.cho@gmail.com', first_name: 'Dana' });
      await expect(rpc.send(BILLING_SUBJECTS.invite, { email: 'dana.cho+friends@googlemail.com' }, caller(referrer))).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: BILLING_MESSAGES.inviteSelf });
      // pat is known (an account): an invitation to another spelling of the address sends nothing.
      await expect(rpc.send(BILLING_SUBJECTS.invite, { email: 'pat+invite@example.com' }, caller(referrer))).resolves.toEqual({ message: BILLING_MESSAGES.inviteSent });
      expect(mail.filter((m) => m.template === 'referral-invite' && m.idempotencyKey?.includes(referrer))).toEqual([]);
    });

    it('two spellings of one address signing up and verifying at the same moment count once', async () => {
      const referrer = randomUUID();
      await account(IDENTITY_SUBJECTS.registered, { user_id: referrer, email: 'host@example.com', first_name: 'H' });
      const { code } = await rpc.send(BILLING_SUBJECTS.referral, {}, caller(referrer));
      const service = app.get(ReferralService);
      const dataSource = app.get(DataSource);
      const friends = [1, 2, 3, 4].map((n) => ({ user_id: randomUUID(), email: n === 1 ? 'zoe@example.com' : `zoe+${n}@Example.com`, first_name: 'Z', referral_code: code }));
      await Promise.all(friends.map((friend) => dataSource.transaction((manager) => service.onRegistered(friend, manager))));
      await Promise.all(friends.map((friend) => dataSource.transaction((manager) => service.onVerified(friend, manager))));
      await expect(rpc.send(BILLING_SUBJECTS.referral, {}, caller(referrer))).resolves.toMatchObject({ joined: 4, counted: 1 });
    });

    it('parallel invitations cannot pass the daily limit: 30 at once send exactly the limit', async () => {
      const inviter = randomUUID();
      profiles.set(inviter, { email: 'paula@example.com', first_name: 'Paula' });
      const results = await Promise.allSettled(
        Array.from({ length: 30 }, (_, n) => rpc.send(BILLING_SUBJECTS.invite, { email: `parallel-${n}@example.com` }, caller(inviter))),
      );
      const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
      expect(refused.map((r) => (r.reason as { code: string }).code)).toEqual(Array(27).fill('RATE_LIMITED'));
      expect(mail.filter((m) => m.template === 'referral-invite' && m.idempotencyKey?.includes(inviter))).toHaveLength(3);
      await expect(rpc.send(BILLING_SUBJECTS.referral, {}, caller(inviter))).resolves.toMatchObject({ invited: 3 });
    });
  });
});
