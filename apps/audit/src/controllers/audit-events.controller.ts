import { Controller, Inject } from '@nestjs/common';
import { STREAMS, SUBJECTS } from '@medfolio/contracts';
import { OnEvent, type EventEnvelope } from '@medfolio/messaging';
import { AuditLogService } from '../services/audit-log.service';

/** Inbound adapter for the AUDIT stream: each record every service publishes goes into the log. */
@Controller()
export class AuditEventsController {
  constructor(@Inject(AuditLogService) private readonly service: AuditLogService) {}

  @OnEvent({
    stream: STREAMS.AUDIT.name,
    durable: 'audit-writer',
    subjects: [SUBJECTS.audit.recorded],
    maxDeliver: 10,
    backoffMs: [200, 1000, 5000],
  })
  async onRecorded(event: EventEnvelope): Promise<void> {
    await this.service.append(event.data);
  }
}
