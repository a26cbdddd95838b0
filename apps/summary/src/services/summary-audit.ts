import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AuditOutcome, CallerIdentity } from '@medfolio/contracts';
import { AuditRecorder } from '@medfolio/audit-client';

export type SummaryAction =
  | 'summary.read'
  | 'summary.fact-hide'
  | 'summary.fact-edit'
  | 'summary.fact-add'
  | 'summary.fact-remove'
  | 'summary.confirm';

/**
 * The summary's audit records, identifiers only (never a fact's text). `record` is fail-closed
 * (UNAVAILABLE when the AUDIT stream does not acknowledge: nothing is then shown or changed);
 * `recordQuietly` is for refusals already decided.
 */
@Injectable()
export class SummaryAudit {
  private readonly logger = new Logger(SummaryAudit.name);

  constructor(@Inject(AuditRecorder) private readonly recorder: AuditRecorder) {}

  async record(caller: CallerIdentity, action: SummaryAction, outcome: AuditOutcome, patientId: string, entityId?: string): Promise<void> {
    await this.recorder.record(caller, {
      action,
      entityType: action === 'summary.read' || action === 'summary.confirm' ? 'summary' : 'summary-fact',
      ...(entityId ? { entityId } : {}),
      patientId,
      outcome,
      policy: 'owner',
    });
  }

  async recordQuietly(caller: CallerIdentity, action: SummaryAction, outcome: AuditOutcome, patientId: string, entityId?: string): Promise<void> {
    try {
      await this.record(caller, action, outcome, patientId, entityId);
    } catch {
      this.logger.warn({ action, outcome, correlationId: caller.correlationId }, 'audit record of a refused request was not stored');
    }
  }
}
