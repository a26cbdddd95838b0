import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AuditOutcome, CallerIdentity } from '@medfolio/contracts';
import { AuditRecorder } from '@medfolio/audit-client';

export type SummaryAction =
  | 'summary.read'
  | 'summary.fact-hide'
  | 'summary.fact-edit'
  | 'summary.fact-add'
  | 'summary.fact-remove'
  | 'summary.confirm'
  | 'trends.read'
  | 'trends.export';

export type ShareAction = 'summary.shared-view' | 'share-link.create' | 'share-link.update' | 'share-link.revoke' | 'share-link.unlock' | 'share-link.locked';

/**
 * The summary's audit records, identifiers only (never a fact's text). `record` is fail-closed
 * (UNAVAILABLE when the AUDIT stream does not acknowledge: nothing is then shown or changed);
 * `recordQuietly` is for refusals already decided.
 */
@Injectable()
export class SummaryAudit {
  private readonly logger = new Logger(SummaryAudit.name);

  constructor(@Inject(AuditRecorder) private readonly recorder: AuditRecorder) {}

  async record(caller: CallerIdentity, action: SummaryAction, outcome: AuditOutcome, patientId: string, entityId?: string, policy = 'owner'): Promise<void> {
    await this.recorder.record(caller, {
      action,
      entityType: action.startsWith('trends.') ? 'trends' : action === 'summary.read' || action === 'summary.confirm' ? 'summary' : 'summary-fact',
      ...(entityId ? { entityId } : {}),
      patientId,
      outcome,
      policy,
    });
  }

  /**
   * A share link's records: against the link's owner (their /history), the link's id as the entity.
   * Views through the link carry the policy `share-link:<id>` (the history says who as "someone with
   * your shared link" and names the link by its label).
   */
  async recordShare(caller: CallerIdentity, action: ShareAction, outcome: AuditOutcome, link: { id: string; ownerId: string }): Promise<void> {
    const byOwner = caller.userId === link.ownerId && action.startsWith('share-link.') && action !== 'share-link.unlock' && action !== 'share-link.locked';
    await this.recorder.record(caller, {
      action,
      entityType: 'share-link',
      entityId: link.id,
      patientId: link.ownerId,
      outcome,
      policy: byOwner ? 'owner' : `share-link:${link.id}`,
    });
  }

  async recordShareQuietly(caller: CallerIdentity, action: ShareAction, outcome: AuditOutcome, link: { id: string; ownerId: string }): Promise<void> {
    try {
      await this.recordShare(caller, action, outcome, link);
    } catch {
      this.logger.warn({ action, outcome, correlationId: caller.correlationId }, 'audit record of a refused request was not stored');
    }
  }

  async recordQuietly(caller: CallerIdentity, action: SummaryAction, outcome: AuditOutcome, patientId: string, entityId?: string, policy = 'owner'): Promise<void> {
    try {
      await this.record(caller, action, outcome, patientId, entityId, policy);
    } catch {
      this.logger.warn({ action, outcome, correlationId: caller.correlationId }, 'audit record of a refused request was not stored');
    }
  }
}
