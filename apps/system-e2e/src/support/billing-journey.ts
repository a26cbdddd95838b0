import { randomBytes, randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import type { CheckoutReply, MembershipView, ReferralView } from '@medfolio/contracts';
import { documentFiles, type StripeRecorder } from '@medfolio/testing';
import { uploadFiles } from './documents-journey';
import { call, codeFor, type Mailbox } from './journey';
import { waitFor } from './processes';

function check(condition: boolean, what: string, detail?: unknown): void {
  if (!condition) throw new Error(`${what}${detail === undefined ? '' : `: ${JSON.stringify(detail)}`}`);
}

/** A new verified account, signed in (optionally with a referral code). */
export async function signUp(base: string, mailbox: Mailbox, name: string, ref?: string): Promise<{ token: string; id: string; email: string }> {
  const email = `${name.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`;
  const registered = await call(base, 'POST', '/api/register/', { first_name: name, phone: '+1 202 555 0143', email, password: 'correct horse battery', date_of_birth: '1985-05-05', ...(ref ? { ref } : {}) });
  check(registered.status === 201, 'register', registered.body);
  await call(base, 'POST', '/api/verify-otp/', { email, otp: await codeFor(mailbox, email) });
  const login = await call<{ access: string }>(base, 'POST', '/api/login/', { email, password: 'correct horse battery' });
  const me = await call<{ id: string }>(base, 'GET', '/api/profile/', undefined, login.body.access);
  return { token: login.body.access, id: me.body.id, email };
}

const pdf = (n: number) => ({ name: `record-${n}.pdf`, data: documentFiles.pdf(`record ${n} ${randomUUID()}`), type: 'application/pdf' });

/**
 * Paying for a plan in test mode on one running product (documents on default quotas: Free 2,
 * Basic 5): the Free plan's third upload is refused naming Basic and /membership; checkout creates
 * the subscription in Stripe (stripe-mock, recorded); Stripe's signed webhook says it is active
 * (delivered twice: handled once); the same user can then upload up to 5. A referral sign-up joins.
 */
export async function billingJourney(base: string, mailbox: Mailbox, stripe: StripeRecorder, webhookSecret: string): Promise<void> {
  const ada = await signUp(base, mailbox, 'Ada');
  check((await uploadFiles(base, ada.token, [pdf(1), pdf(2)])).status === 201, 'two uploads on Free');
  const refused = await uploadFiles(base, ada.token, [pdf(3)]);
  check(refused.status === 402 && /Basic plan allows 5 documents: see \/membership/.test(refused.body.message), 'third upload refused naming Basic', refused.body);

  const plans = await call<{ payments_configured: boolean }>(base, 'GET', '/api/plans/');
  check(plans.body.payments_configured === true, 'payments configured', plans.body);
  const invalid = await call<{ message: string }>(base, 'POST', '/api/stripe/checkout/', { price_id: 'price_gold_monthly', tier: 'basic', mode: 'monthly' }, ada.token);
  check(invalid.status === 400 && invalid.body.message === 'Invalid plan selected.', 'unknown price refused', invalid.body);

  const before = stripe.requests.length;
  const checkout = await call<CheckoutReply>(base, 'POST', '/api/stripe/checkout/', { price_id: 'price_basic_monthly', tier: 'basic', mode: 'monthly' }, ada.token);
  check(checkout.status === 200 && checkout.body.total_cents === 864 && typeof checkout.body.id === 'string', 'checkout', checkout.body);
  const created = stripe.requests.slice(before).find((r) => r.method === 'POST' && r.path === '/v1/subscriptions');
  check(created !== undefined && created.params['payment_behavior'] === 'default_incomplete', 'subscription created in Stripe', created?.params);
  const subscriptionId = String(created!.response['id']);
  const customerId = created!.params['customer']!;
  check((await call<MembershipView>(base, 'GET', '/api/membership/', undefined, ada.token)).body.plan === 'free', 'still Free before Stripe confirms');

  // Stripe confirms the first payment: the subscription is active (a signed webhook, raw body).
  const now = Math.floor(Date.now() / 1000);
  const event = {
    id: `evt_${randomBytes(12).toString('hex')}`,
    object: 'event',
    type: 'customer.subscription.updated',
    created: now,
    data: {
      object: {
        id: subscriptionId,
        object: 'subscription',
        customer: customerId,
        status: 'active',
        cancel_at_period_end: false,
        metadata: {},
        items: { object: 'list', data: [{ id: 'si_e2e', current_period_end: now + 30 * 86400, price: { id: 'price_e2e', lookup_key: 'price_basic_monthly', metadata: {} } }] },
      },
    },
  };
  const payload = JSON.stringify(event, null, 2);
  const signature = new Stripe('sk_test_signer').webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
  const deliver = async (sig: string) => {
    const response = await fetch(`${base}/api/stripe/webhook/`, { method: 'POST', body: payload, headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': sig } });
    return { status: response.status, body: (await response.json()) as { outcome?: string; message?: string } };
  };
  const forged = await deliver(signature.replace(/v1=[0-9a-f]+/, `v1=${'0'.repeat(64)}`));
  check(forged.status === 400, 'forged webhook refused', forged);
  const first = await deliver(signature);
  check(first.status === 200 && first.body.outcome === 'processed', 'webhook processed', first);
  const again = await deliver(signature);
  check(again.status === 200 && again.body.outcome === 'duplicate', 'the same event again: handled once', again);

  // The documents quota follows (billing.entitlement.changed.v1 through the outbox, documents' projection).
  await waitFor('the third upload to be accepted on Basic', async () => ((await uploadFiles(base, ada.token, [pdf(3)])).status === 201 ? true : undefined), 20_000);
  check((await uploadFiles(base, ada.token, [pdf(4), pdf(5)])).status === 201, 'up to 5 on Basic');
  const sixth = await uploadFiles(base, ada.token, [pdf(6)]);
  check(sixth.status === 402 && /Standard plan allows 12 documents/.test(sixth.body.message), 'the sixth refused naming Standard', sixth.body);
  const membership = await call<MembershipView>(base, 'GET', '/api/membership/', undefined, ada.token);
  check(membership.body.plan === 'basic' && membership.body.status === 'active' && membership.body.autopay === true, 'membership shows Basic', membership.body);

  // Referral: a friend signs up with Ada's link and verifies; Ada's page counts them.
  const referral = await call<ReferralView>(base, 'GET', '/api/referral/', undefined, ada.token);
  check(/\/sign-up\?ref=[A-Z0-9]{8}$/.test(referral.body.link), 'referral link', referral.body);
  await signUp(base, mailbox, 'Friend', referral.body.code);
  await waitFor('the friend to count', async () => ((await call<ReferralView>(base, 'GET', '/api/referral/', undefined, ada.token)).body.counted === 1 ? true : undefined), 20_000);
}
