import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { Account, Invite, Referral, ReferralCode, ReferralReward } from '../entities';

export interface ReferralCounts {
  invited: number;
  joined: number;
  counted: number;
}

/** Referral codes, referrals, invitations and rewards (billing's own tables). */
@Injectable()
export class ReferralsRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  codeOf(userId: string): Promise<ReferralCode | null> {
    return this.dataSource.manager.findOneBy(ReferralCode, { userId });
  }

  ownerOfCode(code: string, manager?: EntityManager): Promise<ReferralCode | null> {
    return this.m(manager).findOneBy(ReferralCode, { code });
  }

  /** Inserts the code unless the user has one (or the code is taken): returns the user's code, or null on a code clash. */
  async saveCode(userId: string, code: string): Promise<string | null> {
    await this.dataSource.createQueryBuilder().insert().into(ReferralCode).values({ userId, code }).orIgnore().execute();
    return (await this.codeOf(userId))?.code ?? null;
  }

  /** Records an account billing heard of; false if it was known already. */
  async recordAccount(manager: EntityManager, userId: string, emailHash: string): Promise<void> {
    await manager.createQueryBuilder().insert().into(Account).values({ userId, emailHash }).orIgnore().execute();
  }

  account(userId: string, manager?: EntityManager): Promise<Account | null> {
    return this.m(manager).findOneBy(Account, { userId });
  }

  /** Other accounts with the same address (an address known before this account). */
  async otherAccountsWithEmail(manager: EntityManager, emailHash: string, userId: string): Promise<number> {
    return manager.getRepository(Account).createQueryBuilder('a').where('a.email_hash = :emailHash AND a.user_id <> :userId', { emailHash, userId }).getCount();
  }

  referral(inviteeUserId: string, manager?: EntityManager): Promise<Referral | null> {
    return this.m(manager).findOneBy(Referral, { inviteeUserId });
  }

  lockReferral(manager: EntityManager, inviteeUserId: string): Promise<Referral | null> {
    return manager.getRepository(Referral).createQueryBuilder('r').setLock('pessimistic_write').where('r.invitee_user_id = :inviteeUserId', { inviteeUserId }).getOne();
  }

  async addReferral(manager: EntityManager, referral: Partial<Referral> & Pick<Referral, 'inviteeUserId' | 'referrerUserId' | 'inviteeEmailHash' | 'state'>): Promise<boolean> {
    const result = await manager.createQueryBuilder().insert().into(Referral).values(referral).orIgnore().returning(['invitee_user_id']).execute();
    return Array.isArray(result.raw) && result.raw.length === 1;
  }

  async updateReferral(manager: EntityManager, inviteeUserId: string, changes: Partial<Referral>): Promise<void> {
    await manager.update(Referral, { inviteeUserId }, changes);
  }

  /** Serialises the referral decisions about one address (canonical hash) until the transaction ends. */
  async lockAddress(manager: EntityManager, emailHash: string): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`billing-referral-address:${emailHash}`]);
  }

  /** Has this address been counted for anyone already? */
  async emailCounted(manager: EntityManager, emailHash: string): Promise<boolean> {
    return (await manager.countBy(Referral, { inviteeEmailHash: emailHash, state: 'counted' })) > 0;
  }

  async counts(referrerUserId: string, manager?: EntityManager): Promise<ReferralCounts> {
    const m = this.m(manager);
    const invited = await m.countBy(Invite, { referrerUserId });
    const joined = await m.countBy(Referral, { referrerUserId });
    const counted = await m.countBy(Referral, { referrerUserId, state: 'counted' });
    return { invited, joined, counted };
  }

  /** Locks the referrer's rewards (rewards are decided one at a time per referrer) and returns them. */
  async lockRewards(manager: EntityManager, userId: string): Promise<ReferralReward[]> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`billing-rewards:${userId}`]);
    return manager.find(ReferralReward, { where: { userId }, order: { number: 'ASC' } });
  }

  rewards(userId: string): Promise<ReferralReward[]> {
    return this.dataSource.manager.find(ReferralReward, { where: { userId }, order: { number: 'ASC' } });
  }

  async addReward(manager: EntityManager, reward: Pick<ReferralReward, 'userId' | 'number' | 'kind' | 'amountCents'>): Promise<void> {
    await manager.insert(ReferralReward, reward);
  }

  /**
   * Records one invitation unless the user sent `limit` since `since`: the count and the insert run
   * in one transaction under a lock per inviter, so parallel invitations queue and the limit holds.
   * `fresh` is false if this user invited this address before; `limited` is the oldest invitation
   * in the window when the limit is reached (nothing is recorded then).
   */
  async addInviteWithinLimit(invite: Invite, since: Date, limit: number): Promise<{ fresh: boolean; limited: Date | null }> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`billing-invites:${invite.referrerUserId}`]);
      const window = await manager
        .getRepository(Invite)
        .createQueryBuilder('i')
        .select('count(*)::int', 'n')
        .addSelect('min(i.sent_at)', 'oldest')
        .where('i.referrer_user_id = :referrerUserId AND i.sent_at > :since', { referrerUserId: invite.referrerUserId, since })
        .getRawOne<{ n: number; oldest: Date | string | null }>();
      if ((window?.n ?? 0) >= limit) return { fresh: false, limited: new Date(window?.oldest ?? Date.now()) };
      const result = await manager.createQueryBuilder().insert().into(Invite).values(invite).orIgnore().returning(['id']).execute();
      return { fresh: Array.isArray(result.raw) && result.raw.length === 1, limited: null };
    });
  }

  async emailKnown(emailHash: string): Promise<boolean> {
    return (await this.dataSource.manager.countBy(Account, { emailHash })) > 0;
  }
}
