import { Controller, Inject } from '@nestjs/common';
import { AuditEventDto, STREAMS, SUBJECTS } from '@medfolio/contracts';
import { OnEvent, type EventEnvelope } from '@medfolio/messaging';
import { APPEND_BATCH_MAX, AuditLogService } from '../services/audit-log.service';

/**
 * Inbound adapter for the AUDIT stream: each record every service publishes goes into the log.
 * Up to two batches' worth of records are handed out at once, so one batch fills while the one
 * before commits (AuditLogService batches what arrives together; each record is acked once its
 * batch has committed). The kit validates each record (AuditEventDto): an invalid one is dead-lettered
 * at once, without holding back the others.
 */
@Controller()
export class AuditEventsController {
  constructor(@Inject(AuditLogService) private readonly service: AuditLogService) {}

  @OnEvent({
    stream: STREAMS.AUDIT.name,
    durable: 'audit-writer',
    subjects: [SUBJECTS.audit.recorded],
    maxDeliver: 10,
    backoffMs: [200, 1000, 5000],
    maxInFlight: 2 * APPEND_BATCH_MAX,
    payload: AuditEventDto,
  })
  async onRecorded(event: EventEnvelope<AuditEventDto>): Promise<void> {
    await this.service.append(event.data);
  }
}
