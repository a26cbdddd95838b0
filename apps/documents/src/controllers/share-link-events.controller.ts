import { Controller, Inject } from '@nestjs/common';
import { SHARING_SUBJECTS, ShareLinkChangedEvent, STREAMS } from '@medfolio/contracts';
import { OnEvent, type EventEnvelope } from '@medfolio/messaging';
import type { OnceInTransaction } from '@medfolio/messaging/outbox';
import { ShareLinkGrantsService } from '../services/share-link-grants.service';

/** Inbound adapter for the summary service's share-link changes: grants a link made end with it. */
@Controller()
export class ShareLinkEventsController {
  constructor(@Inject(ShareLinkGrantsService) private readonly grants: ShareLinkGrantsService) {}

  @OnEvent({
    stream: STREAMS.SUMMARY.name,
    durable: 'documents-share-links',
    subjects: [SHARING_SUBJECTS.changed],
    maxDeliver: 10,
    payload: ShareLinkChangedEvent,
    once: true,
  })
  async onChanged(event: EventEnvelope<ShareLinkChangedEvent>, once: OnceInTransaction): Promise<void> {
    await this.grants.onLinkChanged(event, once);
  }
}
