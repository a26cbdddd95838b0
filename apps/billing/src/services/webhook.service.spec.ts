import { Logger } from '@nestjs/common';
import type { OutboxRelay, ProcessedMessages } from '@medfolio/messaging/outbox';
import { BILLING_MESSAGES } from '@medfolio/contracts';
import { automock, refusal } from '@medfolio/testing';
import { BillingConfig } from '../config';
import type { BillingRepository } from '../repositories/billing.repository';
import { ServicesRepository } from '../repositories/services.repository';
import { StripeRepository } from '../repositories/stripe.repository';
import { FakeBilling, FakeProcessedMessages } from '../testing/billing-fakes';
import { CatalogueService } from './catalogue.service';
import { EntitlementsService } from './entitlements.service';
import { WebhookService } from './webhook.service';

const USER = 'user-1';
const T0 = 1_800_000_000; // seconds, as Stripe's `created`
const DAY_S = 86_400;

function setup({ configured = true }: { configured?: boolean } = {}) {
  const config = new BillingConfig();
  config.stripeWebhookSecret = configured ? 'whsec_test' : undefined;
  config.publicBaseUrl = 'https://medfolio.test';
  const billing = new FakeBilling();
  billing.customers.set('cus_1', USER);
  const processed = new FakeProcessedMessages();
  const stripe = automock(StripeRepository);
  // Stripe's check stood in for: 'good' is a valid signature, anything else is not.
  stripe.constructEvent.mockImplementation((payload: string, signature: string) => {
    if (signature !== 'good') throw new Error('No signatures found matching the expected signature for payload');
    return JSON.parse(payload) as ReturnType<StripeRepository['constructEvent']>;
  });
  const services = automock(ServicesRepository);
  services.email.mockResolvedValue({ id: 'mail-1', state: 'queued' });
  const relay = { kick: jest.fn() };
  const entitlements = new EntitlementsService(billing as unknown as BillingRepository, relay as unknown as OutboxRelay);
  const catalogue = new CatalogueService(config, stripe);
  const service = new WebhookService(config, processed as unknown as ProcessedMessages, stripe, billing as unknown as BillingRepository, services, catalogue, entitlements);
  const deliver = (event: object, signature = 'good') => service.receive({ payload: JSON.stringify(event), signature });
  return { service, billing, processed, services, relay, deliver };
}

function subscriptionEvent(id: string, created: number, status: string, overrides: Record<string, unknown> = {}) {
  return {
    id,
    type: 'customer.subscription.updated',
    created,
    data: {
      object: {
        id: 'sub_1', customer: 'cus_1', status, cancel_at_period_end: false, metadata: {},
        items: { data: [{ id: 'si_1', current_period_end: created + 30 * DAY_S, price: { lookup_key: 'price_basic_monthly', metadata: {} } }] },
        ...overrides,
      },
    },
  };
}

function invoiceEvent(id: string, type: 'invoice.paid' | 'invoice.payment_failed', created = T0) {
  return {
    id,
    type,
    created,
    data: {
      object: {
        id: 'in_1', number: 'MF-0001', customer: 'cus_1', customer_email: 'owner@example.test', amount_paid: 1200, amount_due: 1200, attempt_count: 1,
        hosted_invoice_url: 'https://invoice.example.test/in_1', parent: { subscription_details: { subscription: 'sub_1' } },
      },
    },
  };
}

describe('WebhookService', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('refuses a payload whose signature does not check, and applies nothing', async () => {
    const { deliver, billing, processed } = setup();
    expect(await refusal(deliver(subscriptionEvent('evt_1', T0, 'active'), 'forged'))).toMatchObject({ code: 'VALIDATION_FAILED', message: BILLING_MESSAGES.badSignature });
    expect(billing.subscriptions.size).toBe(0);
    expect(processed.ids.size).toBe(0);
  });

  it('answers unavailable without a webhook secret', async () => {
    const { deliver } = setup({ configured: false });
    expect(await refusal(deliver(subscriptionEvent('evt_1', T0, 'active')))).toMatchObject({ code: 'UNAVAILABLE' });
  });

  it("applies a subscription to its customer's user: the plan from the price's lookup key, entitlement published", async () => {
    const { deliver, billing, relay } = setup();
    expect(await deliver(subscriptionEvent('evt_1', T0, 'active'))).toEqual({ received: true, outcome: 'processed' });
    expect(billing.subscriptions.get('sub_1')).toMatchObject({ userId: USER, stripeCustomerId: 'cus_1', status: 'active', plan: 'basic', mode: 'monthly', itemId: 'si_1', stateAt: T0 });
    expect(billing.entitlements.get(USER)).toBe('basic');
    expect(relay.kick).toHaveBeenCalledTimes(1);
  });

  it('handles each event once: a duplicate delivery is acknowledged and changes nothing', async () => {
    const { deliver, billing, relay } = setup();
    await deliver(subscriptionEvent('evt_1', T0, 'active'));
    const saves = billing.saves.length;
    expect(await deliver(subscriptionEvent('evt_1', T0, 'active'))).toEqual({ received: true, outcome: 'duplicate' });
    expect(billing.saves).toHaveLength(saves);
    expect(relay.kick).toHaveBeenCalledTimes(1);
  });

  it('keeps the newest state when updates arrive out of order (and the later status on a same-second tie)', async () => {
    const { deliver, billing } = setup();
    await deliver(subscriptionEvent('evt_2', T0 + 60, 'canceled'));
    await deliver(subscriptionEvent('evt_1', T0, 'active'));
    expect(billing.subscriptions.get('sub_1')).toMatchObject({ status: 'canceled', stateAt: T0 + 60 });
    expect(billing.entitlements.get(USER)).toBe('free');
    await deliver(subscriptionEvent('evt_3', T0 + 120, 'active'));
    await deliver(subscriptionEvent('evt_4', T0 + 120, 'incomplete'));
    expect(billing.subscriptions.get('sub_1')).toMatchObject({ status: 'active', stateAt: T0 + 120 });
  });

  it('ignores a subscription of no known user, a price billing does not sell, and event types it does not act on', async () => {
    const { deliver, billing } = setup();
    expect((await deliver(subscriptionEvent('evt_1', T0, 'active', { customer: 'cus_unknown' }))).outcome).toBe('ignored');
    const unsold = subscriptionEvent('evt_2', T0, 'active');
    unsold.data.object.items.data[0]!.price = { lookup_key: 'price_other', metadata: {} };
    expect((await deliver(unsold)).outcome).toBe('ignored');
    expect((await deliver({ id: 'evt_3', type: 'charge.refunded', created: T0, data: { object: {} } })).outcome).toBe('ignored');
    expect(billing.subscriptions.size).toBe(0);
  });

  it('invoice.paid e-mails one receipt, keyed by invoice, even when Stripe delivers twice', async () => {
    const { deliver, services } = setup();
    await deliver(subscriptionEvent('evt_1', T0, 'active'));
    await deliver(invoiceEvent('evt_2', 'invoice.paid'));
    await deliver(invoiceEvent('evt_2', 'invoice.paid'));
    expect(services.email).toHaveBeenCalledTimes(1);
    const [caller, to, template, data, key] = services.email.mock.calls[0]!;
    expect(caller).toMatchObject({ userId: USER, roles: ['system'] });
    expect([to, template, key]).toEqual(['owner@example.test', 'billing-receipt', 'billing-receipt-in_1']);
    expect(data).toMatchObject({ plan: 'Basic', amount: '$12.00', invoice_number: 'MF-0001' });
  });

  it('invoice.payment_failed: past due with a grace period (the plan stays meanwhile) and an e-mail saying until when', async () => {
    const { deliver, billing, services } = setup();
    await deliver(subscriptionEvent('evt_1', T0, 'active'));
    await deliver(invoiceEvent('evt_2', 'invoice.payment_failed', T0 + 10));
    const graceUntil = new Date((T0 + 10) * 1000 + 7 * DAY_S * 1000);
    expect(billing.subscriptions.get('sub_1')).toMatchObject({ status: 'past_due', graceUntil, stateAt: T0 + 10 });
    expect(billing.entitlements.get(USER)).toBe('basic');
    const [, to, template, data, key] = services.email.mock.calls[0]!;
    expect([to, template, key]).toEqual(['owner@example.test', 'payment-failed', 'billing-payment-failed-in_1-1']);
    expect(data).toMatchObject({ grace_until: graceUntil.toISOString().slice(0, 10), membership_url: 'https://medfolio.test/membership' });
  });

  it('ignores an invoice of no known user or without an e-mail', async () => {
    const { deliver, services } = setup();
    const event = invoiceEvent('evt_1', 'invoice.paid');
    event.data.object.customer = 'cus_unknown';
    event.data.object.parent = { subscription_details: { subscription: 'sub_unknown' } };
    expect((await deliver(event)).outcome).toBe('ignored');
    expect(services.email).not.toHaveBeenCalled();
  });
});
