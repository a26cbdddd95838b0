import { Inject, Injectable } from '@nestjs/common';
import { DataSource, IsNull, MoreThan, type EntityManager } from 'typeorm';
import { OtpCode } from '../entities';

@Injectable()
export class OtpRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** A new code replaces the previous ones (only the newest can be used). */
  async create(userId: string, codeHash: string, expiresAt: Date, manager?: EntityManager): Promise<void> {
    const m = manager ?? this.dataSource.manager;
    await m.update(OtpCode, { userId, consumedAt: IsNull() }, { consumedAt: new Date() });
    await m.insert(OtpCode, { userId, codeHash, expiresAt });
  }

  /** The newest unused code, locked for the duration of the transaction. */
  async lockNewest(manager: EntityManager, userId: string): Promise<OtpCode | null> {
    return manager
      .getRepository(OtpCode)
      .createQueryBuilder('o')
      .setLock('pessimistic_write')
      .where('o.user_id = :userId AND o.consumed_at IS NULL', { userId })
      .orderBy('o.created_at', 'DESC')
      .getOne();
  }

  async recordFailure(manager: EntityManager, id: string): Promise<void> {
    await manager.increment(OtpCode, { id }, 'failedAttempts', 1);
  }

  async consume(manager: EntityManager, id: string): Promise<void> {
    await manager.update(OtpCode, { id }, { consumedAt: new Date() });
  }

  /** Codes sent to the user since a moment (resend limits). Newest first. */
  sentSince(userId: string, since: Date): Promise<OtpCode[]> {
    return this.dataSource.getRepository(OtpCode).find({ where: { userId, createdAt: MoreThan(since) }, order: { createdAt: 'DESC' } });
  }
}
