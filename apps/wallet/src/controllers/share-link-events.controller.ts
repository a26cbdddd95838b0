import { Controller, Inject } from '@nestjs/common';
import { SHARING_SUBJECTS, ShareLinkChangedEvent, STREAMS } from '@medfolio/contracts';
import { OnEvent, type EventEnvelope } from '@medfolio/messaging';
import { WalletService } from '../services/wallet.service';

/** Inbound adapter for the summary service's share-link changes: a wallet pass's link revoked or replaced. */
@Controller()
export class ShareLinkEventsController {
  constructor(@Inject(WalletService) private readonly wallet: WalletService) {}

  /** Validated by the kit (ShareLinkChangedEvent); idempotent by the pass's link version, so no record of processed ids. */
  @OnEvent({
    stream: STREAMS.SUMMARY.name,
    durable: 'wallet-share-links',
    subjects: [SHARING_SUBJECTS.changed],
    maxDeliver: 10,
    payload: ShareLinkChangedEvent,
  })
  async onChanged(event: EventEnvelope<ShareLinkChangedEvent>): Promise<void> {
    await this.wallet.onLinkChanged(event.data);
  }
}
