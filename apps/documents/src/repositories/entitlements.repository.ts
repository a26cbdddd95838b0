import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { PlanId } from '@medfolio/contracts';
import { schemaOf } from '@medfolio/persistence';
import { DocumentRecord, Entitlement, HouseholdMember } from '../entities';
import { In, IsNull } from 'typeorm';

/** The plan projection fed by billing's events. */
@Injectable()
export class EntitlementsRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** The owner's plan; 'free' without a row. Inside a transaction, pass its manager. */
  async planOf(ownerId: string, manager?: EntityManager): Promise<PlanId> {
    const row = await (manager ?? this.dataSource.manager).getRepository(Entitlement).findOneBy({ ownerId });
    return row?.plan ?? 'free';
  }

  /**
   * Whose plan covers a record and whose documents count with it: a dependant's record is covered
   * by their holder's plan and counts with the holder's and every dependant's of theirs (the Family
   * plan covers the household); anyone else's by their own. `name` is the dependant's first name.
   */
  async scopeOf(ownerId: string, manager?: EntityManager): Promise<{ plan: PlanId; holderId: string; name: string | null }> {
    const m = manager ?? this.dataSource.manager;
    const member = await m.getRepository(HouseholdMember).findOneBy({ patientId: ownerId });
    const holderId = member?.holderId ?? ownerId;
    return { plan: await this.planOf(holderId, m), holderId, name: member?.firstName ?? null };
  }

  /** The documents kept in the holder's household: their own and their dependants'. */
  async householdCount(holderId: string, manager?: EntityManager): Promise<number> {
    const m = manager ?? this.dataSource.manager;
    const members = await m.getRepository(HouseholdMember).findBy({ holderId });
    return m.getRepository(DocumentRecord).countBy({ ownerId: In([holderId, ...members.map((x) => x.patientId)]), deletedAt: IsNull() });
  }

  /** A dependant joined (holder set) or left (holder null) a household. */
  async setHousehold(patientId: string, holderId: string | null, firstName: string, manager: EntityManager): Promise<void> {
    if (holderId === null) {
      await manager.delete(HouseholdMember, { patientId });
      return;
    }
    await manager.upsert(HouseholdMember, { patientId, holderId, firstName, updatedAt: new Date() }, ['patientId']);
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
