import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { OnBehalfInterceptor } from './services/on-behalf';
import { PassportModule } from '@nestjs/passport';
import { ThrottlerGuard, ThrottlerModule } from '@nestjs/throttler';
import { Redis } from 'ioredis';
import type { JSONWebKeySet } from 'jose';
import { createValidationPipe, EVENT_BUS, type EventBus, type RpcClient } from '@medfolio/messaging';
import { HealthModule, loggerModule, MetricsModule } from '@medfolio/observability';
import { HttpErrorFilter } from '@medfolio/runtime';
import { GatewayConfig } from './config';
import { StripeWebhookController } from './controllers/billing.controller';
import { ClientConfigController } from './controllers/client-config.controller';
import { devMailControllers, devMailProviders } from './controllers/dev-mail.controller';
import { DocumentsUploadController } from './controllers/documents.controller';
import { FilesController } from './controllers/files.controller';
import { HealthController } from './controllers/health.controller';
import { OidcFormPostCallbackController } from './controllers/oidc-callback.controller';
import { PassKitController } from './controllers/passkit.controller';
import { ProfilePictureUploadController } from './controllers/profile-picture.controller';
import { ShareFormatsController } from './controllers/share-formats.controller';
import { TrendsExportController } from './controllers/trends.controller';
import { FileDownloadsRepository } from './repositories/file-downloads.repository';
import { InternalUploadRepository } from './repositories/internal-upload.repository';
import { RPC_CLIENT } from './repositories/rpc-client.token';
import { RevokedSessionsRepository } from './repositories/revoked-sessions.repository';
import { ServiceHealthRepository } from './repositories/service-health.repository';
import { ServicesRepository } from './repositories/services.repository';
import { WalletRepository } from './repositories/wallet.repository';
import { GatewayHealthService } from './services/gateway-health.service';
import { JwtStrategy, LOCAL_JWKS } from './services/jwt.strategy';
import { MemoryThrottlerStorage } from './services/memory-throttler.storage';
import { RedisThrottlerStorage } from './services/redis-throttler.storage';

export interface GatewayOptions {
  config: GatewayConfig;
  rpc: RpcClient;
  /** Where identity's revocations arrive (EventBus.tail): NATS JetStream, or the one process's in-process bus. */
  eventBus: EventBus;
  /** Embedded mode: the public keys of the local key ring (instead of JWT_JWKS_URL). */
  localJwks: JSONWebKeySet | null;
  /**
   * Embedded mode without SMTP_URL: the dev mailbox's secret. Set, the mailbox is served at /dev/mail
   * and /dev/mail.json to local requests that present it; unset, the paths do not exist.
   */
  devMailKey?: string | null;
  /** The built web app to serve at every non-API path (index.html for client-side routes); null: none. Default: GatewayConfig.webRoot. */
  webRoot?: string | null;
}

/**
 * The public HTTP edge: /api paths, authentication, rate limits, errors, OpenAPI. No data of its
 * own. The routes the table forwards to a service are registered by bootstrap (routes/); the
 * controllers here are the hand-written ones, where HTTP itself is special.
 */
@Module({})
export class GatewayModule {
  static register(options: GatewayOptions): DynamicModule {
    const { config } = options;
    return {
      module: GatewayModule,
      imports: [
        loggerModule('gateway', config.logLevel, config.mode),
        MetricsModule.forApp('gateway', { http: true }),
        HealthModule.forApp({ http: true }),
        PassportModule.register({ session: false }),
        ThrottlerModule.forRoot({
          throttlers: [{ name: 'per-client', ttl: 60_000, limit: config.rateLimitPerMinute }],
          storage: config.redisUrl
            ? new RedisThrottlerStorage(new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 }))
            : new MemoryThrottlerStorage(),
        }),
      ],
      controllers: [HealthController, ProfilePictureUploadController, DocumentsUploadController, ShareFormatsController, TrendsExportController, PassKitController, StripeWebhookController, FilesController, ClientConfigController, OidcFormPostCallbackController, ...devMailControllers(options.devMailKey)],
      providers: [
        { provide: GatewayConfig, useValue: config },
        { provide: RPC_CLIENT, useValue: options.rpc },
        { provide: EVENT_BUS, useValue: options.eventBus },
        RevokedSessionsRepository,
        { provide: LOCAL_JWKS, useValue: options.localJwks },
        { provide: APP_GUARD, useClass: ThrottlerGuard },
        { provide: APP_FILTER, useClass: HttpErrorFilter },
        { provide: APP_INTERCEPTOR, useClass: OnBehalfInterceptor },
        { provide: APP_PIPE, useValue: createValidationPipe() },
        JwtStrategy,
        ServicesRepository,
        InternalUploadRepository,
        WalletRepository,
        FileDownloadsRepository,
        ServiceHealthRepository,
        GatewayHealthService,
        ...devMailProviders(options.devMailKey),
      ],
    };
  }
}
