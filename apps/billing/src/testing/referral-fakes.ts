// An in-memory stand-in for ReferralsRepository, for unit tests of ReferralService.
import type { EntityManager } from 'typeorm';
import type { Account, Invite, Referral, ReferralReward } from '../entities';
import type { ReferralCounts } from '../repositories/referrals.repository';

const NO_MANAGER = {} as EntityManager;

export class FakeReferrals {
  readonly codes = new Map<string, string>(); // user id → code
  readonly accounts = new Map<string, Account>();
  readonly referrals = new Map<string, Referral>(); // invitee user id → referral
  readonly invites: Invite[] = [];
  readonly rewardRows: ReferralReward[] = [];

  async codeOf(userId: string): Promise<{ userId: string; code: string } | null> {
    const code = this.codes.get(userId);
    return code ? { userId, code } : null;
  }

  async ownerOfCode(code: string): Promise<{ userId: string; code: string } | null> {
    const owner = [...this.codes].find(([, c]) => c === code);
    return owner ? { userId: owner[0], code } : null;
  }

  /** As the real one: the first code a user gets stays; a code held by another user is not saved (null). */
  async saveCode(userId: string, code: string): Promise<string | null> {
    if (!this.codes.has(userId) && ![...this.codes.values()].includes(code)) this.codes.set(userId, code);
    return this.codes.get(userId) ?? null;
  }

  async recordAccount(_manager: EntityManager, userId: string, emailHash: string): Promise<void> {
    if (!this.accounts.has(userId)) this.accounts.set(userId, { userId, emailHash, createdAt: new Date() });
  }

  async account(userId: string): Promise<Account | null> {
    return this.accounts.get(userId) ?? null;
  }

  async otherAccountsWithEmail(_manager: EntityManager, emailHash: string, userId: string): Promise<number> {
    return [...this.accounts.values()].filter((a) => a.emailHash === emailHash && a.userId !== userId).length;
  }

  async referral(inviteeUserId: string): Promise<Referral | null> {
    const found = this.referrals.get(inviteeUserId);
    return found ? { ...found } : null;
  }

  async lockReferral(_manager: EntityManager, inviteeUserId: string): Promise<Referral | null> {
    return this.referral(inviteeUserId);
  }

  async addReferral(_manager: EntityManager, referral: Partial<Referral> & Pick<Referral, 'inviteeUserId' | 'referrerUserId' | 'inviteeEmailHash' | 'state'>): Promise<boolean> {
    if (this.referrals.has(referral.inviteeUserId)) return false;
    this.referrals.set(referral.inviteeUserId, { reason: null, joinedAt: new Date(), countedAt: null, ...referral });
    return true;
  }

  async updateReferral(_manager: EntityManager, inviteeUserId: string, changes: Partial<Referral>): Promise<void> {
    Object.assign(this.referrals.get(inviteeUserId)!, changes);
  }

  readonly lockedAddresses: string[] = [];

  /** One transaction holds an address at a time in the real one; here the locks taken are noted. */
  async lockAddress(_manager: EntityManager, emailHash: string): Promise<void> {
    this.lockedAddresses.push(emailHash);
  }

  async emailCounted(_manager: EntityManager, emailHash: string): Promise<boolean> {
    return [...this.referrals.values()].some((r) => r.inviteeEmailHash === emailHash && r.state === 'counted');
  }

  async counts(referrerUserId: string): Promise<ReferralCounts> {
    const mine = [...this.referrals.values()].filter((r) => r.referrerUserId === referrerUserId);
    return { invited: this.invites.filter((i) => i.referrerUserId === referrerUserId).length, joined: mine.length, counted: mine.filter((r) => r.state === 'counted').length };
  }

  async lockRewards(_manager: EntityManager, userId: string): Promise<ReferralReward[]> {
    return this.rewards(userId);
  }

  async rewards(userId: string): Promise<ReferralReward[]> {
    return this.rewardRows.filter((r) => r.userId === userId);
  }

  async addReward(_manager: EntityManager, reward: Pick<ReferralReward, 'userId' | 'number' | 'kind' | 'amountCents'>): Promise<void> {
    this.rewardRows.push({ ...reward, createdAt: new Date() });
  }

  /** As the real statement: at `limit` invitations since `since` none is added (limited: the oldest); one row per address and inviter. */
  async addInviteWithinLimit(invite: Invite, since: Date, limit: number): Promise<{ fresh: boolean; limited: Date | null }> {
    const window = this.invites.filter((i) => i.referrerUserId === invite.referrerUserId && i.sentAt > since);
    if (window.length >= limit) return { fresh: false, limited: new Date(Math.min(...window.map((i) => i.sentAt.getTime()))) };
    if (this.invites.some((i) => i.referrerUserId === invite.referrerUserId && i.emailHash === invite.emailHash)) return { fresh: false, limited: null };
    this.invites.push(invite);
    return { fresh: true, limited: null };
  }

  async emailKnown(emailHash: string): Promise<boolean> {
    return [...this.accounts.values()].some((a) => a.emailHash === emailHash);
  }

  async transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return work(NO_MANAGER);
  }
}
