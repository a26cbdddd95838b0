import { Module, type DynamicModule } from '@nestjs/common';
import { AuditClientModule } from '@medfolio/audit-client';
import { WALLET_PASS_KEY_PREFIX } from '@medfolio/contracts';
import { EventsModule, type EventBus } from '@medfolio/messaging';
import { createStorageFor, SignedFilesController, signedFilesProviders } from '@medfolio/runtime';
import { ServiceKitModule } from '@medfolio/runtime/service-kit';
import { BLOB_STORAGE } from '@medfolio/storage';
import { WalletConfig } from './config';
import { PassKitController } from './controllers/passkit.controller';
import { ShareLinkEventsController } from './controllers/share-link-events.controller';
import { ErasureEventsController } from './controllers/erasure-events.controller';
import { WalletController } from './controllers/wallet.controller';
import { WALLET_ENTITIES } from './entities';
import { WALLET_MIGRATIONS } from './migrations';
import { ApnsRepository } from './repositories/apns.repository';
import { PassBlobsRepository } from './repositories/pass-blobs.repository';
import { PassesRepository } from './repositories/passes.repository';
import { ProfilesRepository } from './repositories/profiles.repository';
import { SharingRepository } from './repositories/sharing.repository';
import { SigningMaterialRepository } from './repositories/signing-material.repository';
import { PassKitService } from './services/passkit.service';
import { WalletService } from './services/wallet.service';

export interface WalletAppOptions {
  config: WalletConfig;
  eventBus: EventBus;
  http: boolean;
}

export function walletDbOptions(config: WalletConfig) {
  return { name: 'wallet' as const, config, entities: WALLET_ENTITIES, migrations: WALLET_MIGRATIONS };
}

/**
 * The wallet service: the patient's signed Apple Wallet pass (cached in storage, served through its
 * own signed download links: GET /internal/files/wallet-passes/...), Apple's PassKit web service
 * (request/reply from the gateway's /api/passkit routes), APNs pushes when the pass's share link is
 * revoked or replaced (the summary service's events), and the Google Wallet Save link.
 */
@Module({})
export class WalletAppModule {
  static register(options: WalletAppOptions): DynamicModule {
    return {
      module: WalletAppModule,
      imports: [
        // Consumes summary.share-link.changed.v1 (SUMMARY) and identity's erasures (IDENTITY); publishes nothing.
        ServiceKitModule.forService({ ...walletDbOptions(options.config), eventBus: options.eventBus, http: options.http, streams: ['SUMMARY', 'IDENTITY'] }),
        AuditClientModule.forService('wallet'),
        EventsModule.forHandlers(),
      ],
      controllers: [SignedFilesController, WalletController, PassKitController, ShareLinkEventsController, ErasureEventsController],
      providers: [
        { provide: WalletConfig, useValue: options.config },
        { provide: BLOB_STORAGE, useFactory: () => createStorageFor(options.config) },
        ...signedFilesProviders({ ownPrefixes: [WALLET_PASS_KEY_PREFIX], config: options.config }),
        PassesRepository,
        PassBlobsRepository,
        SharingRepository,
        ProfilesRepository,
        SigningMaterialRepository,
        ApnsRepository,
        WalletService,
        PassKitService,
      ],
    };
  }
}
