import { Inject, Injectable, Logger } from '@nestjs/common';
import { AuditRecorder } from '@medfolio/audit-client';
import { erasureCaller, RECORD_ERASED_ACTION, type RecordErasedEvent } from '@medfolio/contracts';
import type { OnceInTransaction } from '@medfolio/messaging/outbox';
import { DocumentBlobsRepository } from '../repositories/document-blobs.repository';
import { ErasureRepository } from '../repositories/erasure.repository';

/**
 * The documents service's part of erasing a record (identity.user.record-erased.v1): every stored
 * file and thumbnail of the patient's, then their documents, provider grants and requests, household
 * membership and entitlement rows. Idempotent: blobs go on every delivery (deleting a missing blob
 * succeeds; the rows that name them are deleted only after), the rows and the audit record through
 * `once` (a redelivery after the commit changes nothing).
 */
@Injectable()
export class ErasureService {
  private readonly logger = new Logger(ErasureService.name);

  constructor(
    @Inject(ErasureRepository) private readonly erasure: ErasureRepository,
    @Inject(DocumentBlobsRepository) private readonly blobs: DocumentBlobsRepository,
    @Inject(AuditRecorder) private readonly audit: AuditRecorder,
  ) {}

  async erase(event: RecordErasedEvent, correlationId: string, once: OnceInTransaction): Promise<void> {
    const patientId = event.patient_id;
    const documents = await this.erasure.documentsOf(patientId);
    for (const document of documents) {
      const keys = new Set([document.storageKey, this.blobs.thumbnailKey(patientId, document.id), ...(document.thumbnailKey ? [document.thumbnailKey] : [])]);
      for (const key of keys) await this.blobs.delete(key);
    }
    await once(async (manager) => {
      const deleted = await this.erasure.deleteRows(patientId, manager);
      await this.audit.record(erasureCaller(event, correlationId), { action: RECORD_ERASED_ACTION, entityType: 'record', entityId: patientId, patientId, outcome: 'success' });
      this.logger.log({ ...deleted }, 'record erased');
    });
  }
}
