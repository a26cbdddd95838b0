import { Controller, Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown, type OnModuleInit, type Provider } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { STREAMS, SUBJECTS, type ServiceName } from '@medfolio/contracts';

export type StreamName = keyof typeof STREAMS;
import type { CommonConfig } from '@medfolio/config';
import { createRpcClient, EVENT_BUS, PROCESSED_MESSAGES, RPC_CLIENT, type EventBus, type RpcClient } from '@medfolio/messaging';
import { OutboxRelay, ProcessedMessages, type OutboxRelayOptions } from '@medfolio/messaging/outbox';
import { HealthModule, HealthRegistry, loggerModule, MetricsModule, RpcMetricsInterceptor, type ReadinessReport } from '@medfolio/observability';
import { APP_INTERCEPTOR } from '@nestjs/core';
// The index statically; only its embedded entry point ('@medfolio/persistence/embedded', PGlite) is
// loaded lazily, by embedded-database.ts, so that the service images can leave PGlite out.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { migrate, serviceDataSourceOptions } from '@medfolio/persistence';
import { embeddedDatabaseUrl } from './embedded-database';
import { Housekeeping, serviceHousekeeping } from './housekeeping';

export interface ServiceKitOptions {
  name: ServiceName;
  config: CommonConfig;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: Function[];
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: Function[];
  /** The process's event bus (JetStream in service mode; the shared in-process bus when embedded). */
  eventBus: EventBus;
  /** Service mode serves /health/* and /metrics over HTTP; embedded mode answers health over RPC only. */
  http: boolean;
  /**
   * Streams this service publishes to or consumes from (names in libs/contracts STREAMS), ensured at
   * module init, before any consumer subscribes (AUDIT and DLQ always are). A consumed stream is
   * listed too: its producer may start later, or never run in a small install.
   */
  streams?: StreamName[];
  /** Provide the transactional outbox's relay (`OutboxRelay`, polling every second unless told). */
  outbox?: boolean | OutboxRelayOptions;
  /** Startup options for the app's DB connections, e.g. `-c role=...` (migrations run without them). */
  dbConnectionOptions?: string;
}

/** Resolves the service's database URL: DATABASE_URL, or the embedded PGlite server. */
export async function databaseUrlFor(config: CommonConfig): Promise<string> {
  return config.databaseUrl ?? (await embeddedDatabaseUrl(config.dataDir));
}

export async function dataSourceOptionsFor(options: Omit<ServiceKitOptions, 'eventBus' | 'http'>): Promise<DataSourceOptions> {
  return serviceDataSourceOptions({
    schema: options.name,
    url: await databaseUrlFor(options.config),
    entities: options.entities,
    migrations: options.migrations,
    poolSize: options.config.databasePoolSize,
    ...(options.dbConnectionOptions ? { connectionOptions: options.dbConnectionOptions } : {}),
  });
}

/** Runs the service's migrations with the owner connection (no role switch), then closes it. */
export async function runMigrations(options: Omit<ServiceKitOptions, 'eventBus' | 'http'>): Promise<string[]> {
  const { dbConnectionOptions: _ignored, ...owner } = options;
  const dataSource = new DataSource(await dataSourceOptionsFor(owner));
  await dataSource.initialize();
  try {
    return await migrate(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/** The outbox relay on the service's own DataSource and bus; it starts and stops with the app. */
export function outboxRelayProvider(relay: OutboxRelayOptions = {}): Provider {
  return {
    provide: OutboxRelay,
    inject: [DataSource, EVENT_BUS],
    useFactory: (dataSource: DataSource, bus: EventBus) => new OutboxRelay(dataSource, bus, { intervalMs: 1000, ...relay }),
  };
}

/**
 * Everything a service needs besides its own logic, the same for every service:
 * logging, metrics, health (HTTP and `<service>.health.check`), its TypeORM DataSource on its own
 * schema (migrated at start), the event bus, the shared streams, and the record of processed
 * messages that makes `@OnEvent({ once: true })` handlers apply each message once.
 */
@Module({})
export class ServiceKitModule {
  static forService(options: ServiceKitOptions): DynamicModule {
    @Controller()
    class HealthRpcController {
      constructor(@Inject(HealthRegistry) private readonly health: HealthRegistry) {}

      @MessagePattern(SUBJECTS.health(options.name))
      check(): Promise<ReadinessReport> {
        return this.health.readiness(1000);
      }
    }

    @Injectable()
    class ServiceReadiness implements OnModuleInit {
      constructor(
        @Inject(HealthRegistry) private readonly health: HealthRegistry,
        @Inject(DataSource) private readonly dataSource: DataSource,
        @Inject(EVENT_BUS) private readonly bus: EventBus,
      ) {}

      /** Runs before any onApplicationBootstrap, so streams exist before @OnEvent handlers subscribe. */
      async onModuleInit(): Promise<void> {
        this.health.register('database', async () => (await this.dataSource.query('SELECT 1 AS ok')).length === 1);
        this.health.register('messaging', () => this.bus.isHealthy());
        const replicas = options.config.natsStreamReplicas;
        for (const name of new Set<StreamName>(['AUDIT', 'DLQ', ...(options.streams ?? [])])) {
          await this.bus.ensureStream({ name: STREAMS[name].name, subjects: [...STREAMS[name].subjects], replicas });
        }
      }
    }

    @Injectable()
    class RpcClientCloser implements OnApplicationShutdown {
      constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}
      async onApplicationShutdown(): Promise<void> {
        await this.rpc.close();
      }
    }

    return {
      module: ServiceKitModule,
      global: true,
      imports: [
        loggerModule(options.name, options.config.logLevel, options.config.mode),
        MetricsModule.forApp(options.name, { http: options.http }),
        HealthModule.forApp({ http: options.http }),
        TypeOrmModule.forRootAsync({
          // Named after the service: several services share one process in embedded mode.
          name: options.name,
          useFactory: () => dataSourceOptionsFor(options),
          dataSourceFactory: async (dsOptions) => {
            await runMigrations(options);
            return new DataSource(dsOptions!).initialize();
          },
        }),
      ],
      controllers: [HealthRpcController],
      providers: [
        // The service's code injects plain `DataSource`: it is this service's own.
        { provide: DataSource, useExisting: getDataSourceToken(options.name) },
        { provide: EVENT_BUS, useValue: options.eventBus },
        {
          // For calling other services (request/reply). Closed with the application.
          provide: RPC_CLIENT,
          useFactory: (): RpcClient => createRpcClient(options.name, { natsUrl: options.config.natsUrl, timeoutMs: options.config.rpcTimeoutMs }),
        },
        RpcClientCloser,
        // Duplicate-delivery protection on this service's database: `@OnEvent({ once: true })` handlers get it bound.
        { provide: ProcessedMessages, inject: [DataSource], useFactory: (dataSource: DataSource) => new ProcessedMessages(dataSource) },
        { provide: PROCESSED_MESSAGES, useExisting: ProcessedMessages },
        { provide: APP_INTERCEPTOR, useClass: RpcMetricsInterceptor },
        ServiceReadiness,
        ...(options.outbox ? [outboxRelayProvider(options.outbox === true ? {} : options.outbox)] : []),
        {
          // Prunes the outbox, processed ids and (one process) event logs; a service registers more.
          provide: Housekeeping,
          inject: [DataSource],
          useFactory: (dataSource: DataSource) => serviceHousekeeping(options.config, options.entities, dataSource, options.eventBus),
        },
      ],
      exports: [DataSource, EVENT_BUS, RPC_CLIENT, ProcessedMessages, PROCESSED_MESSAGES, Housekeeping, ...(options.outbox ? [OutboxRelay] : [])],
    };
  }
}
