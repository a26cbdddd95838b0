import { Inject, Injectable } from '@nestjs/common';
import { DataSource, In, IsNull, type EntityManager } from 'typeorm';
import { Dependant, FamilyClaim, FamilyGrant } from '../entities';

/**
 * A dependant's own sign-in: claim links, the claim itself (done inside the account's creation,
 * UsersRepository.create), the teen's answer about their proxies, and the guardians' "turns 18
 * soon" reminders.
 */
@Injectable()
export class FamilyClaimsRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** The dependant's row (not erased), claimed or not. */
  dependant(id: string): Promise<Dependant | null> {
    return this.dataSource.getRepository(Dependant).findOneBy({ id, erasedAt: IsNull() });
  }

  dependants(ids: string[]): Promise<Dependant[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.dataSource.getRepository(Dependant).findBy({ id: In(ids), erasedAt: IsNull() });
  }

  /** A new link for the record; a pending one is replaced (its link stops working), in one transaction. */
  async createClaim(data: Pick<FamilyClaim, 'patientId' | 'email' | 'tokenHash' | 'invitedBy' | 'expiresAt'>, now: Date): Promise<FamilyClaim> {
    return this.dataSource.transaction(async (manager) => {
      await manager.update(FamilyClaim, { patientId: data.patientId, claimedAt: IsNull(), replacedAt: IsNull() }, { replacedAt: now });
      return manager.save(manager.create(FamilyClaim, data));
    });
  }

  findByTokenHash(tokenHash: string): Promise<FamilyClaim | null> {
    return this.dataSource.getRepository(FamilyClaim).findOneBy({ tokenHash });
  }

  /** The newest link of each record (for the guardian's members list). */
  async latestClaims(patientIds: string[]): Promise<Map<string, FamilyClaim>> {
    const found = new Map<string, FamilyClaim>();
    if (patientIds.length === 0) return found;
    const rows = await this.dataSource.getRepository(FamilyClaim).find({ where: { patientId: In(patientIds) }, order: { createdAt: 'DESC' }, take: 500 });
    for (const row of rows) if (!found.has(row.patientId)) found.set(row.patientId, row);
    return found;
  }

  /**
   * Inside the transaction that creates the account (with the dependant's id): the link must still
   * be pending and the dependant unclaimed; both are marked. false: the link was used or replaced meanwhile.
   */
  async markClaimed(manager: EntityManager, claimId: string, patientId: string, now: Date): Promise<boolean> {
    const claim = await manager.getRepository(FamilyClaim).createQueryBuilder('c').where('c.id = :id', { id: claimId }).setLock('pessimistic_write').getOne();
    if (!claim || claim.claimedAt || claim.replacedAt || claim.expiresAt.getTime() <= now.getTime()) return false;
    const updated = await manager.update(Dependant, { id: patientId, claimedAt: IsNull(), erasedAt: IsNull() }, { claimedAt: now });
    if (!updated.affected) return false;
    await manager.update(FamilyClaim, { id: claimId }, { claimedAt: now });
    return true;
  }

  /** Records the teen's answer; declining ends every live grant on the record at once (returned, for the e-mails). */
  async answerAssent(patientId: string, assent: 'given' | 'declined', now: Date): Promise<FamilyGrant[]> {
    return this.dataSource.transaction(async (manager) => {
      await manager.update(Dependant, { id: patientId }, { assent, assentAt: now });
      if (assent === 'given') return [];
      const live = await manager.getRepository(FamilyGrant).find({ where: { patientId, revokedAt: IsNull() } });
      if (live.length) await manager.update(FamilyGrant, { id: In(live.map((g) => g.id)) }, { revokedAt: now });
      return live;
    });
  }

  /** Live guardian grants ending (the 18th birthday) before `before`, whose guardian has not been reminded. */
  comingOfAge(now: Date, before: Date): Promise<FamilyGrant[]> {
    return this.dataSource
      .getRepository(FamilyGrant)
      .createQueryBuilder('g')
      .where("g.revoked_at IS NULL AND g.reminder_sent_at IS NULL AND g.role = 'guardian' AND g.expires_at > :now AND g.expires_at <= :before", { now, before })
      .orderBy('g.expires_at', 'ASC')
      .take(200)
      .getMany();
  }
}
