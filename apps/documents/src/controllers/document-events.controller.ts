import { Controller, Inject, type OnModuleInit } from '@nestjs/common';
import {
  BILLING_SUBJECTS,
  DOCUMENTS_SUBJECTS,
  STREAMS,
  type DocumentDeletedEvent,
  type DocumentUploadedEvent,
} from '@medfolio/contracts';
import { EVENT_BUS, OnEvent, type EventBus, type EventEnvelope } from '@medfolio/messaging';
import { DocumentsConfig } from '../config';
import { EntitlementsService } from '../services/entitlements.service';
import { PurgeService } from '../services/purge.service';
import { ThumbnailService } from '../services/thumbnail.service';

/** Inbound adapter for events: the service's own (thumbnails, purges) and billing's plan changes. */
@Controller()
export class DocumentEventsController implements OnModuleInit {
  constructor(
    @Inject(ThumbnailService) private readonly thumbnails: ThumbnailService,
    @Inject(PurgeService) private readonly purges: PurgeService,
    @Inject(EntitlementsService) private readonly entitlements: EntitlementsService,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(DocumentsConfig) private readonly config: DocumentsConfig,
  ) {}

  /** Billing may not run yet (or ever, in a small install): its stream is ensured before the consumer subscribes. */
  async onModuleInit(): Promise<void> {
    await this.bus.ensureStream({
      ...STREAMS.BILLING,
      subjects: [...STREAMS.BILLING.subjects],
      replicas: this.config.natsStreamReplicas,
    });
  }

  @OnEvent({
    stream: STREAMS.DOCUMENTS.name,
    durable: 'documents-thumbnails',
    subjects: [DOCUMENTS_SUBJECTS.uploaded],
    maxDeliver: 5,
    backoffMs: [1000, 5000, 30_000],
  })
  async onUploaded(event: EventEnvelope<DocumentUploadedEvent>): Promise<void> {
    await this.thumbnails.make(event.data);
  }

  @OnEvent({
    stream: STREAMS.DOCUMENTS.name,
    durable: 'documents-purge',
    subjects: [DOCUMENTS_SUBJECTS.deleted],
    maxDeliver: 10,
    backoffMs: [1000, 5000, 30_000],
  })
  async onDeleted(event: EventEnvelope<DocumentDeletedEvent>): Promise<void> {
    await this.purges.purge(event);
  }

  @OnEvent({
    stream: STREAMS.BILLING.name,
    durable: 'documents-entitlements',
    subjects: [BILLING_SUBJECTS.entitlementChanged],
    maxDeliver: 10,
    backoffMs: [1000, 5000, 30_000],
  })
  async onEntitlementChanged(event: EventEnvelope): Promise<void> {
    await this.entitlements.apply(event);
  }
}
