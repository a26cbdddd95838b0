import { Module, type DynamicModule } from '@nestjs/common';
import { AuditClientModule } from '@medfolio/audit-client';
import { EventsModule, type EventBus } from '@medfolio/messaging';
import { createStorageFor, SignedFilesController, signedFilesProviders } from '@medfolio/runtime';
import { ServiceKitModule } from '@medfolio/runtime/service-kit';
import { BLOB_STORAGE } from '@medfolio/storage';
import { DocumentsConfig } from './config';
import { DOCUMENT_KEY_PREFIX, THUMBNAIL_KEY_PREFIX } from './repositories/document-blobs.repository';
import { ContentController } from './controllers/content.controller';
import { DocumentEventsController } from './controllers/document-events.controller';
import { DocumentsController } from './controllers/documents.controller';
import { ProviderAccessController } from './controllers/provider-access.controller';
import { ShareLinkEventsController } from './controllers/share-link-events.controller';
import { ErasureEventsController } from './controllers/erasure-events.controller';
import { ErasureRepository } from './repositories/erasure.repository';
import { ErasureService } from './services/erasure.service';
import { DirectoryRepository } from './repositories/directory.repository';
import { ProviderAccessRepository } from './repositories/provider-access.repository';
import { ProviderAccessService } from './services/provider-access.service';
import { ShareLinkGrantsService } from './services/share-link-grants.service';
import { UploadController } from './controllers/upload.controller';
import { DOCUMENTS_ENTITIES } from './entities';
import { DOCUMENTS_MIGRATIONS } from './migrations';
import { DocumentBlobsRepository } from './repositories/document-blobs.repository';
import { DocumentsRepository } from './repositories/documents.repository';
import { EntitlementsRepository } from './repositories/entitlements.repository';
import { VirusScannerRepository } from './repositories/virus-scanner.repository';
import { DocumentAudit } from './services/document-audit';
import { DocumentsMetrics } from './services/documents-metrics';
import { DocumentsService } from './services/documents.service';
import { EntitlementsService } from './services/entitlements.service';
import { PurgeService } from './services/purge.service';
import { ThumbnailService } from './services/thumbnail.service';
import { UploadService } from './services/upload.service';

export interface DocumentsAppOptions {
  config: DocumentsConfig;
  eventBus: EventBus;
  http: boolean;
}

export function documentsDbOptions(config: DocumentsConfig) {
  return { name: 'documents' as const, config, entities: DOCUMENTS_ENTITIES, migrations: DOCUMENTS_MIGRATIONS };
}

/**
 * The documents service: streamed, content-checked uploads (internal HTTP from the gateway), the
 * list, deletions and download links (request/reply), thumbnails and purges (its own events), and
 * the plan projection that quotas come from (billing's events).
 */
@Module({})
export class DocumentsAppModule {
  static register(options: DocumentsAppOptions): DynamicModule {
    return {
      module: DocumentsAppModule,
      imports: [
        ServiceKitModule.forService({
          ...documentsDbOptions(options.config),
          eventBus: options.eventBus,
          http: options.http,
          streams: ['DOCUMENTS', 'BILLING', 'SUMMARY', 'IDENTITY'],
          outbox: true,
        }),
        AuditClientModule.forService('documents'),
        EventsModule.forHandlers(),
      ],
      controllers: [SignedFilesController, UploadController, DocumentsController, DocumentEventsController, ContentController, ProviderAccessController, ShareLinkEventsController, ErasureEventsController],
      providers: [
        { provide: DocumentsConfig, useValue: options.config },
        { provide: BLOB_STORAGE, useFactory: () => createStorageFor(options.config) },
        // This service serves its own download links (GET /internal/files/..., passed on by the gateway).
        ...signedFilesProviders({ ownPrefixes: [DOCUMENT_KEY_PREFIX, THUMBNAIL_KEY_PREFIX], config: options.config }),
        DocumentsRepository,
        EntitlementsRepository,
        DocumentBlobsRepository,
        VirusScannerRepository,
        DocumentAudit,
        DocumentsMetrics,
        UploadService,
        DocumentsService,
        ThumbnailService,
        PurgeService,
        EntitlementsService,
        ProviderAccessRepository,
        DirectoryRepository,
        ProviderAccessService,
        ShareLinkGrantsService,
        ErasureRepository,
        ErasureService,
      ],
    };
  }
}
