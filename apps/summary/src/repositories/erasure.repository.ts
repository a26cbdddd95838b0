import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { FactOverride, PrivateDocument, ShareLink, SummaryDocument, SummaryEntitlement, SummaryPatient, SummaryVersion, TrendObservation } from '../entities';

/** What the summary service keeps under one patient id, deleted for an erasure. */
@Injectable()
export class ErasureRepository {
  /**
   * Deletes every row keyed by the patient in `manager`'s transaction, share links first (from the
   * commit on, every link of theirs answers "not valid"); pages go with their documents (ON DELETE
   * CASCADE). How many of each.
   */
  async deleteRows(patientId: string, manager: EntityManager): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    counts['share_links'] = (await manager.delete(ShareLink, { ownerId: patientId })).affected ?? 0;
    counts['documents'] = (await manager.delete(SummaryDocument, { userId: patientId })).affected ?? 0;
    counts['versions'] = (await manager.delete(SummaryVersion, { userId: patientId })).affected ?? 0;
    counts['fact_overrides'] = (await manager.delete(FactOverride, { userId: patientId })).affected ?? 0;
    counts['observations'] = (await manager.delete(TrendObservation, { userId: patientId })).affected ?? 0;
    counts['private_documents'] = (await manager.delete(PrivateDocument, { userId: patientId })).affected ?? 0;
    counts['patients'] = (await manager.delete(SummaryPatient, { userId: patientId })).affected ?? 0;
    counts['entitlements'] = (await manager.delete(SummaryEntitlement, { ownerId: patientId })).affected ?? 0;
    return counts;
  }
}
