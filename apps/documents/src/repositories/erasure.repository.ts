import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AccessRequest, DocumentRecord, Entitlement, HouseholdMember, ProviderGrant } from '../entities';

/** What the documents service keeps under one patient id, found and deleted for an erasure. */
@Injectable()
export class ErasureRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** The stored blobs of every document of the patient's (deleted ones waiting for their purge too). */
  async documentsOf(ownerId: string): Promise<Pick<DocumentRecord, 'id' | 'storageKey' | 'thumbnailKey'>[]> {
    return this.dataSource.getRepository(DocumentRecord).find({ where: { ownerId }, select: { id: true, storageKey: true, thumbnailKey: true } });
  }

  /** Deletes every row keyed by the patient, in `manager`'s transaction; how many of each. */
  async deleteRows(patientId: string, manager: EntityManager): Promise<Record<string, number>> {
    const documents = await manager.delete(DocumentRecord, { ownerId: patientId });
    const grants = await manager.delete(ProviderGrant, { patientId });
    const requests = await manager.delete(AccessRequest, { patientId });
    const household = await manager.delete(HouseholdMember, { patientId });
    const entitlements = await manager.delete(Entitlement, { ownerId: patientId });
    return {
      documents: documents.affected ?? 0,
      provider_grants: grants.affected ?? 0,
      access_requests: requests.affected ?? 0,
      household_members: household.affected ?? 0,
      entitlements: entitlements.affected ?? 0,
    };
  }
}
