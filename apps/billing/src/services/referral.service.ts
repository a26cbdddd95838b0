import { createHash, randomInt, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuditRecorder } from '@medfolio/audit-client';
import { BILLING_MESSAGES, DomainError, REFERRAL_CODE_PATTERN, type CallerIdentity, type InviteDto, type ReferralView } from '@medfolio/contracts';
import { BillingConfig } from '../config';
import { BillingRepository } from '../repositories/billing.repository';
import { ReferralsRepository } from '../repositories/referrals.repository';
import { ServicesRepository } from '../repositories/services.repository';
import { StripeRepository } from '../repositories/stripe.repository';
import { requireUser } from './billing.service';
import { CatalogueService } from './catalogue.service';
import { subscriptionEntitles } from './entitlements';
import { EntitlementsService } from './entitlements.service';

/** Counted referrals per free month. */
export const REFERRALS_PER_MONTH = 3;
const MONTH_MS = 30 * 86_400_000;
/** Code alphabet: no 0/O or 1/I, which people misread. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** What identity's account events carry (identity.user.registered.v1 / verified.v1). */
export interface AccountEvent {
  user_id: string;
  email: string;
  first_name?: string;
  referral_code?: string | null;
}

/** Providers that ignore dots in an address's local part (ann.lee@gmail.com reaches annlee@gmail.com). */
const DOTLESS_DOMAINS: Record<string, string> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/**
 * The mailbox an address reaches, as one form: lower-case, without a +tag (name+1@x is name@x), and
 * for Gmail without dots in the local part and googlemail.com as gmail.com. Referrals count and
 * recognise people by this form, so one person's variants of an address are one person.
 */
export function canonicalEmail(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at <= 0) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1).replace(/\.$/, '');
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  const dotless = DOTLESS_DOMAINS[domain];
  if (dotless) {
    domain = dotless;
    local = local.replace(/\./g, '') || local;
  }
  return `${local}@${domain}`;
}

/** What billing keeps of an address: the SHA-256 of its canonical form. */
export function emailHash(email: string): string {
  return createHash('sha256').update(canonicalEmail(email)).digest('hex');
}

/**
 * The referral programme: every user's code and link, invitations by e-mail, and the count: a
 * referral counts when the invited person verifies their e-mail as a new account (not the referrer,
 * not an address known before, once per address). Every 3 counted earn one free month.
 */
@Injectable()
export class ReferralService {
  constructor(
    @Inject(BillingConfig) private readonly config: BillingConfig,
    @Inject(ReferralsRepository) private readonly referrals: ReferralsRepository,
    @Inject(BillingRepository) private readonly billing: BillingRepository,
    @Inject(StripeRepository) private readonly stripe: StripeRepository,
    @Inject(ServicesRepository) private readonly services: ServicesRepository,
    @Inject(CatalogueService) private readonly catalogue: CatalogueService,
    @Inject(EntitlementsService) private readonly entitlements: EntitlementsService,
    @Inject(AuditRecorder) private readonly audit: AuditRecorder,
  ) {}

  async view(caller: CallerIdentity): Promise<ReferralView> {
    const userId = requireUser(caller);
    const code = await this.codeFor(userId);
    const counts = await this.referrals.counts(userId);
    const rewards = await this.referrals.rewards(userId);
    await this.audit.record(caller, { action: 'billing.referral.read', entityType: 'referral', entityId: userId, patientId: userId, outcome: 'success', policy: 'owner' });
    return {
      code,
      link: `${this.config.publicBaseUrl.replace(/\/$/, '')}/sign-up?ref=${code}`,
      ...counts,
      months_earned: Math.floor(counts.counted / REFERRALS_PER_MONTH),
      towards_next: counts.counted % REFERRALS_PER_MONTH,
      credit_cents: rewards.filter((r) => r.kind === 'credit').reduce((sum, r) => sum + r.amountCents, 0),
    };
  }

  /**
   * E-mails an invitation. The answer is the same whatever the address (an account or not, invited
   * before or not): only the caller's own daily limit is ever said.
   */
  async invite(caller: CallerIdentity, dto: InviteDto): Promise<{ message: string }> {
    const userId = requireUser(caller);
    const hash = emailHash(dto.email);
    const own = await this.referrals.account(userId);
    const profile = own ? null : await this.services.profile(caller);
    if ((own && own.emailHash === hash) || (profile && emailHash(profile.email) === hash)) {
      throw new DomainError('VALIDATION_FAILED', BILLING_MESSAGES.inviteSelf, { email: [BILLING_MESSAGES.inviteSelf] });
    }
    const now = Date.now();
    // Checked and recorded in one transaction, under a lock per inviter: parallel invitations cannot pass the limit.
    const added = await this.referrals.addInviteWithinLimit(
      { id: randomUUID(), referrerUserId: userId, emailHash: hash, sentAt: new Date(now) },
      new Date(now - 86_400_000),
      this.config.invitesPerDay,
    );
    if (added.limited) {
      const wait = Math.max(1, Math.ceil((added.limited.getTime() + 86_400_000 - now) / 1000));
      throw new DomainError('RATE_LIMITED', BILLING_MESSAGES.invitesTooMany(formatWait(wait)), { retry_after: [String(wait)] });
    }
    const fresh = added.fresh;
    // An address with an account, or invited before by this user, gets nothing: same answer.
    if (fresh && !(await this.referrals.emailKnown(hash))) {
      const sender = profile ?? (await this.services.profile(caller));
      const code = await this.codeFor(userId);
      await this.services.email(caller, dto.email, 'referral-invite', {
        inviter_name: sender.first_name,
        signup_url: `${this.config.publicBaseUrl.replace(/\/$/, '')}/sign-up?ref=${code}`,
      }, `referral-invite-${userId}-${hash}`);
    }
    await this.audit.record(caller, { action: 'billing.referral.invite', entityType: 'referral', entityId: userId, patientId: userId, outcome: 'success', policy: 'owner' });
    return { message: BILLING_MESSAGES.inviteSent };
  }

  /** identity.user.registered.v1: the account is known from now on; with a code it has joined. */
  async onRegistered(event: AccountEvent, manager: EntityManager): Promise<void> {
    const hash = emailHash(event.email);
    // One address at a time: two sign-ups with spellings of one address, handled at once, cannot both be new.
    await this.referrals.lockAddress(manager, hash);
    const knownBefore = (await this.referrals.otherAccountsWithEmail(manager, hash, event.user_id)) > 0;
    await this.referrals.recordAccount(manager, event.user_id, hash);
    const code = event.referral_code?.trim().toUpperCase();
    if (!code || !REFERRAL_CODE_PATTERN.test(code)) return;
    const owner = await this.referrals.ownerOfCode(code, manager);
    if (!owner) return;
    const refusal = owner.userId === event.user_id ? 'self' : (await this.isReferrersAddress(manager, owner.userId, hash)) ? 'self' : knownBefore ? 'known-address' : null;
    await this.referrals.addReferral(manager, {
      inviteeUserId: event.user_id,
      referrerUserId: owner.userId,
      inviteeEmailHash: hash,
      state: refusal ? 'refused' : 'joined',
      reason: refusal,
    });
  }

  /** identity.user.verified.v1: a joined referral counts (once per address); returns the referrer to reward. */
  async onVerified(event: AccountEvent, manager: EntityManager): Promise<string | null> {
    const hash = emailHash(event.email);
    // One address at a time: of two verifications of one address handled at once, only one counts.
    await this.referrals.lockAddress(manager, hash);
    await this.referrals.recordAccount(manager, event.user_id, hash);
    const referral = await this.referrals.lockReferral(manager, event.user_id);
    if (!referral || referral.state !== 'joined') return null;
    if (await this.referrals.emailCounted(manager, hash)) {
      await this.referrals.updateReferral(manager, event.user_id, { state: 'refused', reason: 'address-counted-before' });
      return null;
    }
    await this.referrals.updateReferral(manager, event.user_id, { state: 'counted', countedAt: new Date() });
    return referral.referrerUserId;
  }

  /** After a verified event: rewards the referrer of this account if it counted. */
  async rewardFor(inviteeUserId: string): Promise<void> {
    const referral = await this.referrals.referral(inviteeUserId);
    if (referral?.state === 'counted') await this.reward(referral.referrerUserId);
  }

  /**
   * Gives the months earned and not yet given: a credit of one month of the current plan on the
   * next invoice for a paying user (Stripe customer balance), else one month of Basic.
   */
  async reward(referrerUserId: string): Promise<void> {
    let kicked = false;
    await this.referrals.transaction(async (manager) => {
      const given = await this.referrals.lockRewards(manager, referrerUserId);
      const { counted } = await this.referrals.counts(referrerUserId, manager);
      const earned = Math.floor(counted / REFERRALS_PER_MONTH);
      for (let number = given.length + 1; number <= earned; number++) {
        const now = new Date();
        const paying = (await this.billing.subscriptionsOf(referrerUserId, manager)).find((s) => subscriptionEntitles(s, now) && s.status !== 'past_due');
        if (paying && this.stripe.configured) {
          const monthly = this.catalogue.plans.of(paying.plan as Exclude<typeof paying.plan, 'free'>, 'monthly').amountCents;
          await this.stripe.credit(paying.stripeCustomerId, monthly, `Referral reward: one free month (${number})`, `medfolio-referral-${referrerUserId}-${number}`);
          await this.referrals.addReward(manager, { userId: referrerUserId, number, kind: 'credit', amountCents: monthly });
        } else {
          const start = (await this.billing.latestGrantEnd(referrerUserId, manager)) ?? now;
          const startsAt = start.getTime() > now.getTime() ? start : now;
          await this.billing.addGrant(manager, { id: randomUUID(), userId: referrerUserId, plan: 'basic', startsAt, endsAt: new Date(startsAt.getTime() + MONTH_MS), reason: `referral-${number}` });
          await this.referrals.addReward(manager, { userId: referrerUserId, number, kind: 'grant', amountCents: 0 });
          kicked = (await this.entitlements.recompute(manager, referrerUserId, now)).changed || kicked;
        }
      }
    });
    if (kicked) this.entitlements.published();
  }

  private async isReferrersAddress(manager: EntityManager, referrerUserId: string, hash: string): Promise<boolean> {
    const referrer = await this.referrals.account(referrerUserId, manager);
    return referrer?.emailHash === hash;
  }

  /** The user's code, made on first use (8 characters; a clash, unlikely, draws again). */
  private async codeFor(userId: string): Promise<string> {
    const existing = await this.referrals.codeOf(userId);
    if (existing) return existing.code;
    for (let attempt = 0; attempt < 5; attempt++) {
      const code = Array.from({ length: 8 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
      const saved = await this.referrals.saveCode(userId, code);
      if (saved) return saved;
    }
    throw new Error('Could not make a unique referral code');
  }
}

function formatWait(seconds: number): string {
  if (seconds >= 3600) return `${Math.ceil(seconds / 3600)} hours`;
  if (seconds >= 60) return `${Math.ceil(seconds / 60)} minutes`;
  return `${seconds} seconds`;
}
