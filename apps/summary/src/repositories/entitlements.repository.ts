import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { PlanId } from '@medfolio/contracts';
import { schemaOf } from '@medfolio/persistence';
import { SummaryEntitlement } from '../entities';

/** The plan projection fed by billing's events (as the documents service keeps one). */
@Injectable()
export class SummaryEntitlementsRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** The owner's plan; 'free' without a row. */
  async planOf(ownerId: string): Promise<PlanId> {
    const row = await this.dataSource.getRepository(SummaryEntitlement).findOneBy({ ownerId });
    return row?.plan ?? 'free';
  }

  /**
   * Sets the owner's plan as of `changedAt`, unless the projection already holds a change at least
   * as new (events may come again, or late). True if it changed anything.
   */
  async apply(ownerId: string, plan: PlanId, changedAt: Date, manager: EntityManager): Promise<boolean> {
    const table = `"${schemaOf(this.dataSource)}".entitlements`;
    const result = (await manager.query(
      `INSERT INTO ${table} AS e (owner_id, plan, changed_at, updated_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (owner_id) DO UPDATE SET plan = EXCLUDED.plan, changed_at = EXCLUDED.changed_at, updated_at = now()
       WHERE e.changed_at < EXCLUDED.changed_at
       RETURNING owner_id`,
      [ownerId, plan, changedAt],
    )) as unknown[];
    return result.length === 1;
  }
}
