import { Controller, Inject } from '@nestjs/common';
import { BILLING_SUBJECTS, DOCUMENTS_SUBJECTS, DocumentDeletedEvent, DocumentUploadedEvent, EntitlementChangedEvent, FAMILY_SERVICE_SUBJECTS, HouseholdChangedEvent, STREAMS } from '@medfolio/contracts';
import { OnEvent, type EventEnvelope } from '@medfolio/messaging';
import type { OnceInTransaction } from '@medfolio/messaging/outbox';
import { EntitlementsService } from '../services/entitlements.service';
import { PurgeService } from '../services/purge.service';
import { ThumbnailService } from '../services/thumbnail.service';

/**
 * Inbound adapter for events: the service's own (thumbnails, purges) and billing's plan changes.
 * Their streams are ensured by the service kit (`streams` in app.module); retries use the bus defaults
 * (libs/messaging delivery-policy DEFAULTS) unless a consumer says otherwise. The kit validates each
 * payload against its contract class (an invalid one is dead-lettered) and, for `once` consumers,
 * records the message id in the transaction of the handler's changes (a redelivery changes nothing).
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
    payload: DocumentUploadedEvent,
  })
  async onUploaded(event: EventEnvelope<DocumentUploadedEvent>): Promise<void> {
    await this.thumbnails.make(event.data);
  }

  @OnEvent({
    stream: STREAMS.DOCUMENTS.name,
    durable: 'documents-purge',
    subjects: [DOCUMENTS_SUBJECTS.deleted],
    maxDeliver: 10,
    payload: DocumentDeletedEvent,
    once: true,
  })
  async onDeleted(event: EventEnvelope<DocumentDeletedEvent>, once: OnceInTransaction): Promise<void> {
    await this.purges.purge(event.data, once);
  }

  @OnEvent({
    stream: STREAMS.BILLING.name,
    durable: 'documents-entitlements',
    subjects: [BILLING_SUBJECTS.entitlementChanged],
    maxDeliver: 10,
    payload: EntitlementChangedEvent,
    once: true,
  })
  async onEntitlementChanged(event: EventEnvelope<EntitlementChangedEvent>, once: OnceInTransaction): Promise<void> {
    await once((manager) => this.entitlements.apply(event.data, manager));
  }

  @OnEvent({
    stream: STREAMS.IDENTITY.name,
    durable: 'documents-households',
    subjects: [FAMILY_SERVICE_SUBJECTS.householdChanged],
    maxDeliver: 10,
    payload: HouseholdChangedEvent,
    once: true,
  })
  async onHouseholdChanged(event: EventEnvelope<HouseholdChangedEvent>, once: OnceInTransaction): Promise<void> {
    await once((manager) => this.entitlements.applyHousehold(event.data, manager));
  }
}
