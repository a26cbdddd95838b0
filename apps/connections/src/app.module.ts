import { Module, type DynamicModule } from '@nestjs/common';
import { AuditClientModule } from '@medfolio/audit-client';
import { EventsModule, type EventBus } from '@medfolio/messaging';
import { ServiceKitModule } from '@medfolio/runtime/service-kit';
import { ConnectionsConfig } from './config';
import { ConnectionsController } from './controllers/connections.controller';
import { ShlReceiverController } from './controllers/shl-receiver.controller';
import { ErasureEventsController } from './controllers/erasure-events.controller';
import { CONNECTIONS_ENTITIES } from './entities';
import { CONNECTIONS_MIGRATIONS } from './migrations';
import { loadClientKeys } from './repositories/client-keys';
import { ClientRegistrationsRepository } from './repositories/client-registrations.repository';
import { ConnectionsRepository } from './repositories/connections.repository';
import { EndpointDirectoryRepository } from './repositories/endpoint-directory.repository';
import { FhirServerRepository } from './repositories/fhir-server.repository';
import { RecordDocumentsRepository } from './repositories/record-documents.repository';
import { ShlFetchRepository } from './repositories/shl-fetch.repository';
import { SmartServerRepository } from './repositories/smart-server.repository';
import { SyncRepository } from './repositories/sync.repository';
import { loadTokenEnvelope } from './repositories/token-keys';
import { CLIENT_KEYS, ClientAuthService } from './services/client-auth.service';
import { ConnectionsService } from './services/connections.service';
import { ShlReceiverService } from './services/shl-receiver.service';
import { SYNC_TICK_MS, SyncService } from './services/sync.service';
import { TokenSealer } from './services/token-sealer';

export interface ConnectionsAppOptions {
  config: ConnectionsConfig;
  eventBus: EventBus;
  http: boolean;
}

export function connectionsDbOptions(config: ConnectionsConfig) {
  return { name: 'connections' as const, config, entities: CONNECTIONS_ENTITIES, migrations: CONNECTIONS_MIGRATIONS };
}

/**
 * The connections service: the patient's SMART on FHIR patient-access links to hospitals and clinics
 * (the endpoint directory, the standalone launch with PKCE, tokens sealed at rest, disconnecting, and the sync of their records into its own table).
 * The kit (ServiceKitModule) brings logs, metrics, health and readiness, its DataSource on schema
 * "connections" (migrated at start), the event bus and the RPC client. It publishes no events; it follows identity's erasures of a record.
 */
@Module({})
export class ConnectionsAppModule {
  static register(options: ConnectionsAppOptions): DynamicModule {
    return {
      module: ConnectionsAppModule,
      imports: [
        // Consumes identity's erasures of a record (IDENTITY); publishes nothing.
        ServiceKitModule.forService({ ...connectionsDbOptions(options.config), eventBus: options.eventBus, http: options.http, streams: ['IDENTITY'] }),
        AuditClientModule.forService('connections'),
        EventsModule.forHandlers(),
      ],
      controllers: [ConnectionsController, ShlReceiverController, ErasureEventsController],
      providers: [
        { provide: ConnectionsConfig, useValue: options.config },
        { provide: TokenSealer, useFactory: async () => new TokenSealer(await loadTokenEnvelope(options.config)) },
        { provide: CLIENT_KEYS, useFactory: () => loadClientKeys(options.config) },
        ConnectionsRepository,
        EndpointDirectoryRepository,
        ClientRegistrationsRepository,
        ClientAuthService,
        SmartServerRepository,
        FhirServerRepository,
        RecordDocumentsRepository,
        SyncRepository,
        { provide: SYNC_TICK_MS, useValue: null },
        SyncService,
        ConnectionsService,
        ShlFetchRepository,
        ShlReceiverService,
      ],
    };
  }
}
