import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AuditOutcome, CallerIdentity } from '@medfolio/contracts';
import { AuditRecorder } from '@medfolio/audit-client';

export type DocumentAction =
  | 'document.upload'
  | 'document.list'
  | 'document.download-link'
  | 'document.delete'
  | 'document.integrity-check'
  | 'document.content-read';

/**
 * The documents service's audit records: one per access, identifiers only (never a filename).
 * `record` is fail-closed (it throws UNAVAILABLE when the AUDIT stream does not acknowledge, and
 * the caller must then not go on); `recordQuietly` is for outcomes already decided (a refusal),
 * where a lost record must not hide the reason the user is about to read.
 */
@Injectable()
export class DocumentAudit {
  private readonly logger = new Logger(DocumentAudit.name);

  constructor(@Inject(AuditRecorder) private readonly recorder: AuditRecorder) {}

  async record(
    caller: CallerIdentity,
    action: DocumentAction,
    outcome: AuditOutcome,
    patientId: string,
    documentId?: string,
  ): Promise<void> {
    await this.recorder.record(caller, {
      action,
      entityType: 'document',
      ...(documentId ? { entityId: documentId } : {}),
      patientId,
      outcome,
      policy: 'owner',
    });
  }

  async recordQuietly(
    caller: CallerIdentity,
    action: DocumentAction,
    outcome: AuditOutcome,
    patientId: string,
    documentId?: string,
  ): Promise<void> {
    try {
      await this.record(caller, action, outcome, patientId, documentId);
    } catch {
      this.logger.warn(
        { action, outcome, correlationId: caller.correlationId },
        'audit record of a refused request was not stored',
      );
    }
  }
}
