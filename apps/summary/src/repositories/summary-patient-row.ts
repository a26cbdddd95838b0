import type { EntityManager } from 'typeorm';
import { SummaryPatient } from '../entities';

/** Makes the patient's row (no version yet, no rebuild due) unless it is there, in `manager`'s transaction. */
export async function ensurePatientRow(manager: EntityManager, userId: string): Promise<void> {
  await manager
    .createQueryBuilder()
    .insert()
    .into(SummaryPatient)
    .values({ userId, rebuildDueAt: null, latestVersion: 0, confirmedVersion: null })
    .orIgnore()
    .execute();
}
