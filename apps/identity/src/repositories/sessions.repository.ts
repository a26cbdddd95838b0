import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { IDENTITY_SUBJECTS, type SessionsRevokedEvent } from '@medfolio/contracts';
import { Outbox } from '@medfolio/messaging/outbox';
import { RefreshFamily, RefreshToken } from '../entities';

export type RotateResult =
  | { kind: 'rotated'; userId: string; familyId: string }
  | { kind: 'unknown' | 'expired' | 'revoked' }
  | { kind: 'reused'; userId: string; familyId: string; rotatedAt: Date };

/** Refresh token families (one per sign-in) and their tokens. */
@Injectable()
export class SessionsRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async startFamily(userId: string, tokenHash: string, expiresAt: Date): Promise<string> {
    return this.dataSource.transaction(async (manager) => {
      const family = await manager.save(manager.create(RefreshFamily, { userId }));
      await manager.insert(RefreshToken, { familyId: family.id, tokenHash, expiresAt });
      return family.id;
    });
  }

  /**
   * Exchanges a refresh token for the next one, atomically: the row is locked, so of several
   * concurrent calls with one token exactly one rotates it; the others see it rotated.
   */
  async rotate(tokenHash: string, next: { tokenHash: string; expiresAt: Date }, now: Date): Promise<RotateResult> {
    return this.dataSource.transaction(async (manager) => {
      const token = await manager
        .getRepository(RefreshToken)
        .createQueryBuilder('t')
        .setLock('pessimistic_write')
        .where('t.token_hash = :tokenHash', { tokenHash })
        .getOne();
      if (!token) return { kind: 'unknown' };
      const family = await manager.findOneBy(RefreshFamily, { id: token.familyId });
      if (!family || family.revokedAt) return { kind: 'revoked' };
      if (token.rotatedAt) return { kind: 'reused', userId: family.userId, familyId: family.id, rotatedAt: token.rotatedAt };
      if (token.expiresAt <= now) return { kind: 'expired' };
      await manager.update(RefreshToken, { id: token.id }, { rotatedAt: now });
      await manager.insert(RefreshToken, { familyId: family.id, tokenHash: next.tokenHash, expiresAt: next.expiresAt });
      return { kind: 'rotated', userId: family.userId, familyId: family.id };
    });
  }

  async familyOf(tokenHash: string): Promise<RefreshFamily | null> {
    const token = await this.dataSource.getRepository(RefreshToken).findOneBy({ tokenHash });
    return token ? this.dataSource.getRepository(RefreshFamily).findOneBy({ id: token.familyId }) : null;
  }

  /** Revokes one sign-in; returns whether it was active. */
  async revokeFamily(familyId: string, reason: string, manager?: EntityManager): Promise<boolean> {
    return (await this.revoke({ familyId }, reason, manager)).length > 0;
  }

  /** Revokes every sign-in of a user, or every one but `keep`; returns the ids revoked. */
  async revokeAllForUser(userId: string, reason: string, keep?: string, manager?: EntityManager): Promise<string[]> {
    return this.revoke({ userId, keep }, reason, manager);
  }

  /**
   * Marks the sign-ins revoked and, in the same transaction, writes the event that makes every
   * gateway refuse their access tokens at once (identity.user.sessions-revoked.v1, outbox).
   */
  private async revoke(which: { familyId?: string; userId?: string; keep?: string | undefined }, reason: string, manager?: EntityManager): Promise<string[]> {
    const work = async (m: EntityManager) => {
      const revokedAt = new Date();
      const query = m
        .createQueryBuilder()
        .update(RefreshFamily)
        .set({ revokedAt, revokedReason: reason })
        .where('revoked_at IS NULL');
      if (which.familyId) query.andWhere('id = :familyId', { familyId: which.familyId });
      if (which.userId) query.andWhere('user_id = :userId', { userId: which.userId });
      if (which.keep) query.andWhere('id <> :keep', { keep: which.keep });
      const result = await query.returning(['id', 'userId']).execute();
      const rows = (result.raw as { id: string; user_id?: string; userId?: string }[]) ?? [];
      const byUser = new Map<string, string[]>();
      for (const row of rows) {
        const userId = row.user_id ?? row.userId ?? '';
        byUser.set(userId, [...(byUser.get(userId) ?? []), row.id]);
      }
      for (const [userId, sessionIds] of byUser) {
        const event: SessionsRevokedEvent = { user_id: userId, session_ids: sessionIds, revoked_at: revokedAt.toISOString(), reason };
        await Outbox.add(m, IDENTITY_SUBJECTS.sessionsRevoked, { ...event });
      }
      return rows.map((row) => row.id);
    };
    return manager ? work(manager) : this.dataSource.transaction(work);
  }

  async isActive(familyId: string): Promise<boolean> {
    const family = await this.dataSource.getRepository(RefreshFamily).findOneBy({ id: familyId });
    return !!family && !family.revokedAt;
  }
}
