import { AuditRecorder } from '@medfolio/audit-client';
import { BILLING_MESSAGES, REFERRAL_CODE_PATTERN, type CallerIdentity } from '@medfolio/contracts';
import type { OutboxRelay } from '@medfolio/messaging/outbox';
import { automock, refusal } from '@medfolio/testing';
import type { EntityManager } from 'typeorm';
import { BillingConfig } from '../config';
import type { Subscription } from '../entities';
import type { BillingRepository } from '../repositories/billing.repository';
import type { ReferralsRepository } from '../repositories/referrals.repository';
import { ServicesRepository } from '../repositories/services.repository';
import { StripeRepository } from '../repositories/stripe.repository';
import { FakeBilling } from '../testing/billing-fakes';
import { FakeReferrals } from '../testing/referral-fakes';
import { CatalogueService } from './catalogue.service';
import { EntitlementsService } from './entitlements.service';
import { canonicalEmail, emailHash, REFERRALS_PER_MONTH, ReferralService } from './referral.service';

const M = {} as EntityManager;
const REFERRER = 'referrer-1';
const referrer: CallerIdentity = { userId: REFERRER, roles: ['patient'], correlationId: 'c-1' };
const DAY = 86_400_000;

function setup({ invitesPerDay = 10 } = {}) {
  const config = new BillingConfig();
  config.publicBaseUrl = 'https://medfolio.test/';
  config.invitesPerDay = invitesPerDay;
  const referrals = new FakeReferrals();
  const billing = new FakeBilling();
  const stripe = automock(StripeRepository);
  const services = automock(ServicesRepository);
  services.profile.mockResolvedValue({ email: 'Ann.Lee@gmail.com', first_name: 'Ann' } as Awaited<ReturnType<ServicesRepository['profile']>>);
  services.email.mockResolvedValue({ id: 'mail-1', state: 'queued' });
  const audit = automock(AuditRecorder);
  audit.record.mockResolvedValue(undefined as never);
  const relay = { kick: jest.fn() };
  const entitlements = new EntitlementsService(billing as unknown as BillingRepository, relay as unknown as OutboxRelay);
  const service = new ReferralService(config, referrals as unknown as ReferralsRepository, billing as unknown as BillingRepository, stripe, services, new CatalogueService(config, stripe), entitlements, audit);
  return { service, referrals, billing, stripe, services, relay };
}

/** A friend signs up with the referrer's code, then verifies their address; the referrer is rewarded as the consumer does. */
async function friendJoins(service: ReferralService, code: string, userId: string, email: string): Promise<void> {
  await service.onRegistered({ user_id: userId, email, referral_code: code }, M);
  await service.onVerified({ user_id: userId, email }, M);
  await service.rewardFor(userId);
}

describe('canonicalEmail', () => {
  it('one mailbox, one form: lower case, no +tag, Gmail without dots and googlemail.com as gmail.com', () => {
    expect(canonicalEmail('  Ann.Lee@Example.COM ')).toBe('ann.lee@example.com');
    expect(canonicalEmail('ann+referral@example.com')).toBe('ann@example.com');
    expect(canonicalEmail('A.n.n.Lee+x@gmail.com')).toBe('annlee@gmail.com');
    expect(canonicalEmail('ann.lee@googlemail.com')).toBe('annlee@gmail.com');
    // Dots matter outside Gmail; a leading + is part of the name.
    expect(canonicalEmail('ann.lee@example.com')).not.toBe(canonicalEmail('annlee@example.com'));
    expect(canonicalEmail('+ann@example.com')).toBe('+ann@example.com');
    expect(emailHash('Ann.Lee+1@gmail.com')).toBe(emailHash('annlee@googlemail.com'));
  });
});

describe('ReferralService', () => {
  it("gives each user one code (8 characters, no 0/O/1/I) and a sign-up link with it", async () => {
    const { service, referrals } = setup();
    const view = await service.view(referrer);
    expect(view.code).toMatch(REFERRAL_CODE_PATTERN);
    expect(view.code).not.toMatch(/[01OI]/);
    expect(view.link).toBe(`https://medfolio.test/sign-up?ref=${view.code}`);
    expect((await service.view(referrer)).code).toBe(view.code);
    expect(referrals.codes.size).toBe(1);
    expect(view).toMatchObject({ invited: 0, joined: 0, counted: 0, months_earned: 0, towards_next: 0 });
  });

  it('refuses inviting oneself, in any spelling of one\'s own address', async () => {
    const { service, services } = setup();
    expect(await refusal(service.invite(referrer, { email: 'annlee+friends@GMAIL.com' }))).toMatchObject({ code: 'VALIDATION_FAILED', message: BILLING_MESSAGES.inviteSelf });
    expect(services.email).not.toHaveBeenCalled();
  });

  it('e-mails a new address once, with the link; an address with an account gets the same answer and no e-mail', async () => {
    const { service, services, referrals } = setup();
    await referrals.recordAccount(M, 'member-1', emailHash('member@example.com'));
    const sent = await service.invite(referrer, { email: 'friend@example.com' });
    expect(await service.invite(referrer, { email: 'Friend+again@example.com' })).toEqual(sent);
    expect(await service.invite(referrer, { email: 'member@example.com' })).toEqual(sent);
    expect(sent).toEqual({ message: BILLING_MESSAGES.inviteSent });
    expect(services.email).toHaveBeenCalledTimes(1);
    const [, to, template, data] = services.email.mock.calls[0]!;
    expect([to, template]).toEqual(['friend@example.com', 'referral-invite']);
    expect(data).toMatchObject({ inviter_name: 'Ann', signup_url: expect.stringMatching(/^https:\/\/medfolio\.test\/sign-up\?ref=[A-Z0-9]{8}$/) });
  });

  it('limits invitations per day, saying when to try again; a day later it sends again', async () => {
    const { service, referrals } = setup({ invitesPerDay: 2 });
    await service.invite(referrer, { email: 'one@example.com' });
    await service.invite(referrer, { email: 'two@example.com' });
    const error = await refusal(service.invite(referrer, { email: 'three@example.com' }));
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.message).toBe(BILLING_MESSAGES.invitesTooMany('24 hours'));
    expect(Number((error.details as { retry_after: string[] }).retry_after[0])).toBeGreaterThan(DAY / 1000 - 60);
    // Twelve hours on, the day is not over: still refused, and the wait says how long is left.
    for (const invite of referrals.invites) invite.sentAt = new Date(invite.sentAt.getTime() - DAY / 2);
    expect(await refusal(service.invite(referrer, { email: 'three@example.com' }))).toMatchObject({ code: 'RATE_LIMITED', message: BILLING_MESSAGES.invitesTooMany('12 hours') });
    for (const invite of referrals.invites) invite.sentAt = new Date(invite.sentAt.getTime() - DAY / 2 - 1000);
    await expect(service.invite(referrer, { email: 'three@example.com' })).resolves.toEqual({ message: BILLING_MESSAGES.inviteSent });
  });

  it('counts a friend once: another spelling of a counted address, the referrer themself, or an address known before, never count', async () => {
    const { service, referrals } = setup();
    const { code } = await service.view(referrer);
    await referrals.recordAccount(M, REFERRER, emailHash('ann.lee@gmail.com'));
    await referrals.recordAccount(M, 'old-1', emailHash('old@example.com'));
    await friendJoins(service, code, 'friend-1', 'bob.smith@gmail.com');
    await friendJoins(service, code, 'friend-2', 'Bob.Smith+2@googlemail.com');
    await friendJoins(service, code, 'self-2', 'annlee@gmail.com');
    await friendJoins(service, code, 'old-2', 'OLD@example.com');
    expect([...referrals.referrals.values()].map((r) => [r.inviteeUserId, r.state, r.reason])).toEqual([
      ['friend-1', 'counted', null],
      ['friend-2', 'refused', 'known-address'],
      ['self-2', 'refused', 'self'],
      ['old-2', 'refused', 'known-address'],
    ]);
    expect((await service.view(referrer)).counted).toBe(1);
  });

  it('an account that verifies an address already counted (changed since sign-up) is refused, not counted twice', async () => {
    const { service, referrals } = setup();
    const { code } = await service.view(referrer);
    await friendJoins(service, code, 'friend-1', 'bob@example.com');
    await service.onRegistered({ user_id: 'friend-2', email: 'carol@example.com', referral_code: code }, M);
    expect(await service.onVerified({ user_id: 'friend-2', email: 'Bob+new@example.com' }, M)).toBeNull();
    expect(referrals.referrals.get('friend-2')).toMatchObject({ state: 'refused', reason: 'address-counted-before' });
  });

  it('a second verification of one account, or an unknown or malformed code, counts nothing more', async () => {
    const { service, referrals } = setup();
    const { code } = await service.view(referrer);
    await friendJoins(service, code, 'friend-1', 'bob@example.com');
    expect(await service.onVerified({ user_id: 'friend-1', email: 'bob@example.com' }, M)).toBeNull();
    await service.onRegistered({ user_id: 'friend-2', email: 'carol@example.com', referral_code: 'ZZZZZZZZ' }, M);
    await service.onRegistered({ user_id: 'friend-3', email: 'dave@example.com', referral_code: 'not a code' }, M);
    expect(referrals.referrals.size).toBe(1);
  });

  it(`${REFERRALS_PER_MONTH} counted friends earn a free month of Basic (once), the entitlement published`, async () => {
    const { service, billing, relay } = setup();
    const { code } = await service.view(referrer);
    await friendJoins(service, code, 'friend-1', 'f1@example.com');
    await friendJoins(service, code, 'friend-2', 'f2@example.com');
    expect(billing.grants).toHaveLength(0);
    await friendJoins(service, code, 'friend-3', 'f3@example.com');
    expect(billing.grants).toHaveLength(1);
    const grant = billing.grants[0]!;
    expect(grant).toMatchObject({ userId: REFERRER, plan: 'basic', reason: 'referral-1' });
    expect(grant.endsAt.getTime() - grant.startsAt.getTime()).toBe(30 * DAY);
    expect(billing.entitlements.get(REFERRER)).toBe('basic');
    expect(relay.kick).toHaveBeenCalled();
    await service.reward(REFERRER);
    expect(billing.grants).toHaveLength(1);
    expect(await service.view(referrer)).toMatchObject({ counted: 3, months_earned: 1, towards_next: 0 });
  });

  it('a paying referrer gets a credit of one month of their plan on the next invoice instead', async () => {
    const { service, billing, stripe, referrals } = setup();
    Object.defineProperty(stripe, 'configured', { value: true });
    stripe.credit.mockResolvedValue(undefined as never);
    billing.subscriptions.set('sub_1', { id: 'sub_1', userId: REFERRER, stripeCustomerId: 'cus_1', status: 'active', plan: 'basic', mode: 'yearly', graceUntil: null } as Subscription);
    const { code } = await service.view(referrer);
    for (const n of [1, 2, 3]) await friendJoins(service, code, `friend-${n}`, `f${n}@example.com`);
    expect(stripe.credit).toHaveBeenCalledTimes(1);
    const [customer, cents, , key] = stripe.credit.mock.calls[0]!;
    expect(customer).toBe('cus_1');
    expect(cents).toBe(new CatalogueService(new BillingConfig(), stripe).plans.of('basic', 'monthly').amountCents);
    expect(key).toBe(`medfolio-referral-${REFERRER}-1`);
    expect(billing.grants).toHaveLength(0);
    expect(referrals.rewardRows).toEqual([expect.objectContaining({ kind: 'credit', number: 1 })]);
  });
});
