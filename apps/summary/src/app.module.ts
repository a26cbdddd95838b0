import { Module, type DynamicModule } from '@nestjs/common';
import { AuditClientModule } from '@medfolio/audit-client';
import type { EventBus } from '@medfolio/messaging';
import { ServiceKitModule } from '@medfolio/runtime/service-kit';
import { SummaryConfig } from './config';
import { SummaryController } from './controllers/summary.controller';
import { SUMMARY_ENTITIES } from './entities';
import { SUMMARY_MIGRATIONS } from './migrations';
import { SummaryItemsRepository } from './repositories/summary-items.repository';
import { SummaryService } from './services/summary.service';

export interface SummaryAppOptions {
  config: SummaryConfig;
  eventBus: EventBus;
  http: boolean;
}

export function summaryDbOptions(config: SummaryConfig) {
  return { name: 'summary' as const, config, entities: SUMMARY_ENTITIES, migrations: SUMMARY_MIGRATIONS };
}

/**
 * The summary service. The kit (ServiceKitModule) brings logs, metrics, health and readiness,
 * its DataSource on schema "summary" (migrated at start), the event bus and the RPC client;
 * add `streams: [...]` and `outbox: true` there when it publishes or consumes events, and
 * `EventsModule.forHandlers()` to the imports for `@OnEvent` consumers.
 */
@Module({})
export class SummaryAppModule {
  static register(options: SummaryAppOptions): DynamicModule {
    return {
      module: SummaryAppModule,
      imports: [
        ServiceKitModule.forService({ ...summaryDbOptions(options.config), eventBus: options.eventBus, http: options.http }),
        AuditClientModule.forService('summary'),
      ],
      controllers: [SummaryController],
      providers: [{ provide: SummaryConfig, useValue: options.config }, SummaryItemsRepository, SummaryService],
    };
  }
}
