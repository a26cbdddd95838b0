import { Controller, Inject } from '@nestjs/common';
import { SHARING_SUBJECTS, STREAMS, type ShareLinkChangedEvent } from '@medfolio/contracts';
import { OnEvent, type EventEnvelope } from '@medfolio/messaging';
import { ShareLinkGrantsService } from '../services/share-link-grants.service';

/** Inbound adapter for the summary service's share-link changes: grants a link made end with it. */
@Controller()
export class ShareLinkEventsController {
  constructor(@Inject(ShareLinkGrantsService) private readonly grants: ShareLinkGrantsService) {}

  @OnEvent({ stream: STREAMS.SUMMARY.name, durable: 'documents-share-links', subjects: [SHARING_SUBJECTS.changed], maxDeliver: 10, backoffMs: [1000, 5000, 30_000] })
  async onChanged(event: EventEnvelope<ShareLinkChangedEvent>): Promise<void> {
    await this.grants.onLinkChanged(event);
  }
}
