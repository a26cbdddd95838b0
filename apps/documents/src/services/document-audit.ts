import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AuditOutcome, CallerIdentity } from '@medfolio/contracts';
import { AuditRecorder } from '@medfolio/audit-client';

export type DocumentAction =
  | 'document.upload'
  | 'document.list'
  | 'document.download-link'
  | 'document.delete'
  | 'document.integrity-check'
  | 'document.content-read'
  /** The owner marked a document private from their proxies, or not. */
  | 'document.privacy'
  | 'provider-access.request'
  | 'provider-access.grant'
  | 'provider-access.approve'
  | 'provider-access.decline'
  | 'provider-access.revoke'
  /** A grant made by a share link ended with the link (revoked, expired, or no longer letting providers in). */
  | 'provider-access.end';

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
    policy = 'owner',
  ): Promise<void> {
    await this.recorder.record(caller, {
      action,
      entityType: action.startsWith('provider-access.') ? 'provider-access' : 'document',
      ...(documentId ? { entityId: documentId } : {}),
      patientId,
      outcome,
      policy,
    });
  }

  async recordQuietly(
    caller: CallerIdentity,
    action: DocumentAction,
    outcome: AuditOutcome,
    patientId: string,
    documentId?: string,
    policy = 'owner',
  ): Promise<void> {
    try {
      await this.record(caller, action, outcome, patientId, documentId, policy);
    } catch {
      this.logger.warn(
        { action, outcome, correlationId: caller.correlationId },
        'audit record of a refused request was not stored',
      );
    }
  }
}

/**
 * The policy of a provider's access in an audit record: the grant, and the provider as the
 * registry names them, so the patient's history reads "Dr Ana Ruiz (NPI 1234567893) downloaded
 * labs.pdf" (a provider's public registry name and number, no health data).
 */
export function providerPolicy(grantId: string, displayName: string): string {
  return `provider:${grantId}:${displayName}`.slice(0, 200);
}
