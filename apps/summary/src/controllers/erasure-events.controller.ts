import { Controller, Inject } from '@nestjs/common';
import { ERASURE_SUBJECTS, RecordErasedEvent, STREAMS } from '@medfolio/contracts';
import { HEADER, OnEvent, type EventEnvelope } from '@medfolio/messaging';
import type { OnceInTransaction } from '@medfolio/messaging/outbox';
import { ErasureService } from '../services/erasure.service';

/** Inbound adapter for identity's erasure of a record: the summary service deletes its part. */
@Controller()
export class ErasureEventsController {
  constructor(@Inject(ErasureService) private readonly erasure: ErasureService) {}

  @OnEvent({
    stream: STREAMS.IDENTITY.name,
    durable: 'summary-erasure',
    subjects: [ERASURE_SUBJECTS.erased],
    maxDeliver: 10,
    payload: RecordErasedEvent,
    once: true,
  })
  async onErased(event: EventEnvelope<RecordErasedEvent>, once: OnceInTransaction): Promise<void> {
    await this.erasure.erase(event.data, event.headers[HEADER.correlationId] || event.id, once);
  }
}
