import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { AuditEventDto, DomainError, SUBJECTS, type AuditOutcome, type CallerIdentity } from '@medfolio/contracts';
import { callerHeaders, EVENT_BUS, type EventBus } from '@medfolio/messaging';

export const AUDIT_SERVICE_NAME = Symbol('AUDIT_SERVICE_NAME');

export interface AuditRecord {
  action: string;
  entityType: string;
  entityId?: string;
  /** Whose health data this touches; shown in that patient's access history. */
  patientId?: string;
  outcome: AuditOutcome;
  /** The policy that allowed the access: 'owner', 'share-link:<id>', ... ('proxy:<role>' whenever caller.actor is set). */
  policy?: string;
}

/**
 * Records every access to health data, fail-closed: `record()` resolves only once the AUDIT stream
 * has acknowledged the record; if it cannot, it throws UNAVAILABLE (HTTP 503) and the caller must
 * not hand out the data. The record holds identifiers only, never the data itself.
 */
@Injectable()
export class AuditRecorder {
  private readonly logger = new Logger(AuditRecorder.name);

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(AUDIT_SERVICE_NAME) private readonly service: string,
  ) {}

  async record(caller: CallerIdentity, record: AuditRecord): Promise<AuditEventDto> {
    const event = Object.assign(new AuditEventDto(), {
      id: randomUUID(),
      occurredAt: new Date().toISOString(),
      service: this.service,
      actor: caller.userId ?? 'anonymous',
      correlationId: caller.correlationId,
      ...(caller.ip ? { ip: caller.ip } : {}),
      ...(caller.userAgent ? { userAgent: caller.userAgent.slice(0, 500) } : {}),
      ...record,
      // A caregiver or guardian acting on another person's record (caller.actor): the record names
      // who really acted, the record's person as the patient, and the proxy role that allowed it.
      ...(caller.actor ? { actor: caller.actor.userId, patientId: record.patientId ?? caller.userId, policy: `proxy:${caller.actor.role}` } : {}),
    });
    try {
      await this.bus.publish(SUBJECTS.audit.recorded, event, { msgId: event.id, headers: callerHeaders(caller) });
    } catch (error) {
      this.logger.error({ action: record.action, correlationId: caller.correlationId, err: String(error) }, 'audit write failed');
      throw new DomainError('UNAVAILABLE', 'The audit log is unavailable, so this request was refused. Please try again shortly.');
    }
    return event;
  }
}
