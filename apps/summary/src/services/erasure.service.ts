import { Inject, Injectable, Logger } from '@nestjs/common';
import { AuditRecorder } from '@medfolio/audit-client';
import { erasureCaller, RECORD_ERASED_ACTION, type RecordErasedEvent } from '@medfolio/contracts';
import type { OnceInTransaction } from '@medfolio/messaging/outbox';
import { ErasureRepository } from '../repositories/erasure.repository';

/**
 * The summary service's part of erasing a record (identity.user.record-erased.v1): share links
 * (they stop answering with the commit), documents and their pages, versions, the patient's own
 * overrides, observations, privacy marks, the patient row and the plan projection; audited record.erased.
 * Everything is rows, so it all goes through `once`: a redelivery changes nothing, and the same
 * erasure under another message id finds nothing left to delete.
 */
@Injectable()
export class ErasureService {
  private readonly logger = new Logger(ErasureService.name);

  constructor(
    @Inject(ErasureRepository) private readonly erasure: ErasureRepository,
    @Inject(AuditRecorder) private readonly audit: AuditRecorder,
  ) {}

  async erase(event: RecordErasedEvent, correlationId: string, once: OnceInTransaction): Promise<void> {
    const patientId = event.patient_id;
    await once(async (manager) => {
      const deleted = await this.erasure.deleteRows(patientId, manager);
      await this.audit.record(erasureCaller(event, correlationId), { action: RECORD_ERASED_ACTION, entityType: 'record', entityId: patientId, patientId, outcome: 'success' });
      this.logger.log({ ...deleted }, 'record erased');
    });
  }
}
