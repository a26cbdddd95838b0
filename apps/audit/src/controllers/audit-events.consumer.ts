import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { STREAMS, SUBJECTS } from '@medfolio/contracts';
import { EVENT_BUS, type ConsumerHandle, type EventBus } from '@medfolio/messaging';
import { AuditLogService } from '../services/audit-log.service';

/** Inbound adapter for the AUDIT stream: each record goes to AuditLogService.append. */
@Injectable()
export class AuditEventsConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private handle: ConsumerHandle | undefined;

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(AuditLogService) private readonly service: AuditLogService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // Idempotent; does not depend on which bootstrap hook ran first.
    await this.bus.ensureStream({ name: STREAMS.AUDIT.name, subjects: [...STREAMS.AUDIT.subjects] });
    this.handle = await this.bus.consume(
      { stream: STREAMS.AUDIT.name, durable: 'audit-writer', filterSubjects: [SUBJECTS.audit.recorded], maxDeliver: 10, backoffMs: [200, 1000, 5000] },
      async (event) => {
        await this.service.append(event.data);
      },
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.handle?.stop();
  }
}
