import { Inject, Injectable } from '@nestjs/common';
import { DataSource, IsNull, Not, type EntityManager } from 'typeorm';
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

  async revokeFamily(familyId: string, reason: string, manager?: EntityManager): Promise<void> {
    await (manager ?? this.dataSource.manager).update(RefreshFamily, { id: familyId, revokedAt: IsNull() }, { revokedAt: new Date(), revokedReason: reason });
  }

  /** Revokes every sign-in of a user, or every one but `keep`. */
  async revokeAllForUser(userId: string, reason: string, keep?: string, manager?: EntityManager): Promise<void> {
    await (manager ?? this.dataSource.manager).update(
      RefreshFamily,
      { userId, revokedAt: IsNull(), ...(keep ? { id: Not(keep) } : {}) },
      { revokedAt: new Date(), revokedReason: reason },
    );
  }

  async isActive(familyId: string): Promise<boolean> {
    const family = await this.dataSource.getRepository(RefreshFamily).findOneBy({ id: familyId });
    return !!family && !family.revokedAt;
  }
}
