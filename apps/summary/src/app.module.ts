import { Module, type DynamicModule } from '@nestjs/common';
import { AuditClientModule } from '@medfolio/audit-client';
import { EventsModule, type EventBus } from '@medfolio/messaging';
import { ServiceKitModule } from '@medfolio/runtime/service-kit';
import { SummaryConfig } from './config';
import { DocumentEventsController } from './controllers/document-events.controller';
import { DocumentPrivacyEventsController } from './controllers/document-privacy-events.controller';
import { PrivateDocumentsRepository } from './repositories/private-documents.repository';
import { ShareFormatsController } from './controllers/share-formats.controller';
import { SharingController } from './controllers/sharing.controller';
import { SummaryController } from './controllers/summary.controller';
import { BillingEventsController } from './controllers/billing-events.controller';
import { TrendsController } from './controllers/trends.controller';
import { ErasureEventsController } from './controllers/erasure-events.controller';
import { ErasureRepository } from './repositories/erasure.repository';
import { ErasureService } from './services/erasure.service';
import { SUMMARY_ENTITIES } from './entities';
import { summaryMigrations } from './migrations';
import { DocumentContentRepository } from './repositories/document-content.repository';
import { ShareLinksRepository } from './repositories/share-links.repository';
import { ShlKeySealer } from './repositories/shl-key-sealer';
import { ShareNotifierRepository } from './repositories/share-notifier.repository';
import { GrantsRepository } from './repositories/grants.repository';
import { PatientIdentityRepository } from './repositories/patient-identity.repository';
import { ProviderSummaryService } from './services/provider-summary.service';
import { ProviderSummaryController } from './controllers/provider-summary.controller';
import { SummaryDocumentsRepository } from './repositories/summary-documents.repository';
import { SummaryEntitlementsRepository } from './repositories/entitlements.repository';
import { ObservationsRepository } from './repositories/observations.repository';
import { SummaryVersionsRepository } from './repositories/summary-versions.repository';
import { BuilderService } from './services/builder.service';
import { createEngine, createOcrScheduler, OCR_SCHEDULER, SUMMARY_ENGINE } from './services/engine';
import { ExtractionService } from './services/extraction.service';
import { ShareFormatsService } from './services/share-formats.service';
import { loadShareLinkKeys } from './services/share-link-keys';
import { SHARE_LINK_KEYS, SharingService } from './services/sharing.service';
import { SummaryAudit } from './services/summary-audit';
import { SummaryService } from './services/summary.service';
import { TrendsService } from './services/trends.service';

export interface SummaryAppOptions {
  config: SummaryConfig;
  eventBus: EventBus;
  http: boolean;
}

export function summaryDbOptions(config: SummaryConfig) {
  return { name: 'summary' as const, config, entities: SUMMARY_ENTITIES, migrations: summaryMigrations(config) };
}

/**
 * The summary service: reads uploaded documents (documents' events, bytes over documents' internal
 * HTTP), keeps their text and facts, rebuilds each patient's summary (debounced, versioned) with the
 * configured engine, and answers the summary and review calls (request/reply). It also owns the
 * share links to the summary (sharing.service.ts): the links, the public view and its audit.
 */
@Module({})
export class SummaryAppModule {
  static register(options: SummaryAppOptions): DynamicModule {
    return {
      module: SummaryAppModule,
      imports: [
        ServiceKitModule.forService({
          ...summaryDbOptions(options.config),
          eventBus: options.eventBus,
          http: options.http,
          // Consumes documents' events, billing's plan changes and identity's erasures; publishes summary.summary.built.v1 through its outbox.
          streams: ['DOCUMENTS', 'BILLING', 'SUMMARY', 'IDENTITY'],
          outbox: true,
        }),
        AuditClientModule.forService('summary'),
        EventsModule.forHandlers(),
      ],
      controllers: [SummaryController, SharingController, ShareFormatsController, DocumentEventsController, DocumentPrivacyEventsController, ProviderSummaryController, TrendsController, BillingEventsController, ErasureEventsController],
      providers: [
        { provide: SummaryConfig, useValue: options.config },
        { provide: SUMMARY_ENGINE, useFactory: () => createEngine() },
        { provide: OCR_SCHEDULER, useFactory: () => createOcrScheduler(options.config) },
        SummaryDocumentsRepository,
        PrivateDocumentsRepository,
        SummaryVersionsRepository,
        DocumentContentRepository,
        SummaryAudit,
        ExtractionService,
        BuilderService,
        SummaryService,
        // Share links: beside the summary they share.
        { provide: SHARE_LINK_KEYS, useFactory: () => loadShareLinkKeys(options.config) },
        ShareLinksRepository,
        // SHL keys sealed at rest, and stored secrets sealed again after a key rotation.
        ShlKeySealer,
        ShareNotifierRepository,
        SharingService,
        // The summary as FHIR IPS, PDF and SMART Health Links.
        ShareFormatsService,
        // Providers: a patient's summary for a provider with an active grant (documents owns grants).
        GrantsRepository,
        PatientIdentityRepository,
        ProviderSummaryService,
        // Health trends: observations per document, the plan projection that gates them.
        ObservationsRepository,
        SummaryEntitlementsRepository,
        TrendsService,
        // Erasing a record (identity's event): every row of the patient's.
        ErasureRepository,
        ErasureService,
      ],
    };
  }
}
