import { Controller, Inject } from '@nestjs/common';
import {
  BILLING_SUBJECTS,
  DOCUMENTS_SUBJECTS,
  STREAMS,
  type DocumentDeletedEvent,
  type DocumentUploadedEvent,
} from '@medfolio/contracts';
import { OnEvent, type EventEnvelope } from '@medfolio/messaging';
import { EntitlementsService } from '../services/entitlements.service';
import { PurgeService } from '../services/purge.service';
import { ThumbnailService } from '../services/thumbnail.service';

/**
 * Inbound adapter for events: the service's own (thumbnails, purges) and billing's plan changes.
 * Their streams are ensured by the service kit (`streams` in app.module); retries use the bus defaults
 * (libs/messaging delivery-policy DEFAULTS) unless a consumer says otherwise.
 */
@Controller()
export class DocumentEventsController {
  constructor(
    @Inject(ThumbnailService) private readonly thumbnails: ThumbnailService,
    @Inject(PurgeService) private readonly purges: PurgeService,
    @Inject(EntitlementsService) private readonly entitlements: EntitlementsService,
  ) {}

  @OnEvent({
    stream: STREAMS.DOCUMENTS.name,
    durable: 'documents-thumbnails',
    subjects: [DOCUMENTS_SUBJECTS.uploaded],
  })
  async onUploaded(event: EventEnvelope<DocumentUploadedEvent>): Promise<void> {
    await this.thumbnails.make(event.data);
  }

  @OnEvent({
    stream: STREAMS.DOCUMENTS.name,
    durable: 'documents-purge',
    subjects: [DOCUMENTS_SUBJECTS.deleted],
    maxDeliver: 10,
  })
  async onDeleted(event: EventEnvelope<DocumentDeletedEvent>): Promise<void> {
    await this.purges.purge(event);
  }

  @OnEvent({
    stream: STREAMS.BILLING.name,
    durable: 'documents-entitlements',
    subjects: [BILLING_SUBJECTS.entitlementChanged],
    maxDeliver: 10,
  })
  async onEntitlementChanged(event: EventEnvelope): Promise<void> {
    await this.entitlements.apply(event);
  }
}
