import { Inject, Injectable } from '@nestjs/common';
import { DataSource, IsNull, type EntityManager } from 'typeorm';
import { PasswordReset } from '../entities';

@Injectable()
export class PasswordResetsRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** A new link replaces the previous ones. */
  async create(userId: string, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.update(PasswordReset, { userId, usedAt: IsNull() }, { usedAt: new Date() });
      await manager.insert(PasswordReset, { userId, tokenHash, expiresAt });
    });
  }

  /** The unused reset with this hash, if any (not locked: a first look before the work). */
  findUnused(tokenHash: string): Promise<PasswordReset | null> {
    return this.dataSource.getRepository(PasswordReset).findOne({ where: { tokenHash, usedAt: IsNull() } });
  }

  /** Locks the unused reset with this hash, if any. */
  lockUnused(manager: EntityManager, tokenHash: string): Promise<PasswordReset | null> {
    return manager
      .getRepository(PasswordReset)
      .createQueryBuilder('r')
      .setLock('pessimistic_write')
      .where('r.token_hash = :tokenHash AND r.used_at IS NULL', { tokenHash })
      .getOne();
  }

  async markUsed(manager: EntityManager, id: string): Promise<void> {
    await manager.update(PasswordReset, { id }, { usedAt: new Date() });
  }
}
