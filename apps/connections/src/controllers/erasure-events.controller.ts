import { Controller, Inject } from '@nestjs/common';
import { ERASURE_SUBJECTS, RecordErasedEvent, STREAMS } from '@medfolio/contracts';
import { HEADER, OnEvent, type EventEnvelope } from '@medfolio/messaging';
import { ConnectionsService } from '../services/connections.service';

/** Inbound adapter for identity's erasure of a record: the patient's hospital connections are revoked and deleted. */
@Controller()
export class ErasureEventsController {
  constructor(@Inject(ConnectionsService) private readonly connections: ConnectionsService) {}

  /** Validated by the kit (RecordErasedEvent); every step is harmless to repeat (the service keeps no processed ids). */
  @OnEvent({
    stream: STREAMS.IDENTITY.name,
    durable: 'connections-erasure',
    subjects: [ERASURE_SUBJECTS.erased],
    maxDeliver: 10,
    payload: RecordErasedEvent,
  })
  async onErased(event: EventEnvelope<RecordErasedEvent>): Promise<void> {
    await this.connections.erase(event.data, event.headers[HEADER.correlationId] || event.id);
  }
}
