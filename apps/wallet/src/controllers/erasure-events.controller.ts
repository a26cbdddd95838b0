import { Controller, Inject } from '@nestjs/common';
import { ERASURE_SUBJECTS, RecordErasedEvent, STREAMS } from '@medfolio/contracts';
import { HEADER, OnEvent, type EventEnvelope } from '@medfolio/messaging';
import { WalletService } from '../services/wallet.service';

/** Inbound adapter for identity's erasure of a record: the patient's passes are voided and deleted. */
@Controller()
export class ErasureEventsController {
  constructor(@Inject(WalletService) private readonly wallet: WalletService) {}

  /** Validated by the kit (RecordErasedEvent); every step is harmless to repeat, so no record of processed ids (the wallet has none). */
  @OnEvent({
    stream: STREAMS.IDENTITY.name,
    durable: 'wallet-erasure',
    subjects: [ERASURE_SUBJECTS.erased],
    maxDeliver: 10,
    payload: RecordErasedEvent,
  })
  async onErased(event: EventEnvelope<RecordErasedEvent>): Promise<void> {
    await this.wallet.onRecordErased(event.data, event.headers[HEADER.correlationId] || event.id);
  }
}
