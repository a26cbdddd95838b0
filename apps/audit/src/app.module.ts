import { Module, type DynamicModule } from '@nestjs/common';
import { AuditClientModule } from '@medfolio/audit-client';
import { EventsModule, type EventBus } from '@medfolio/messaging';
import { ServiceKitModule } from '@medfolio/runtime/service-kit';
import type { AuditConfig } from './config';
import { AuditEventsController } from './controllers/audit-events.controller';
import { HistoryController } from './controllers/history.controller';
import { AuditLogEntry } from './entities/audit-log-entry.entity';
import { AUDIT_MIGRATIONS } from './migrations';
import { writerRole } from './migrations/1763700000000-create-audit-log';
import { PeopleRepository } from './repositories/people.repository';
import { AuditLogRepository } from './repositories/audit-log.repository';
import { AuditLogService } from './services/audit-log.service';

export interface AuditAppOptions {
  config: AuditConfig;
  eventBus: EventBus;
  http: boolean;
}

export const AUDIT_ENTITIES = [AuditLogEntry];

export function auditDbOptions(config: AuditConfig) {
  return {
    name: 'audit' as const,
    config,
    entities: AUDIT_ENTITIES,
    migrations: AUDIT_MIGRATIONS,
    ...(config.dbRole ? { dbConnectionOptions: `-c role=${config.dbRole}` } : {}),
  };
}

/** The audit service: consumes the AUDIT stream into the hash-chained log; answers history queries. */
@Module({})
export class AuditAppModule {
  static register(options: AuditAppOptions): DynamicModule {
    return {
      module: AuditAppModule,
      imports: [
        ServiceKitModule.forService({ ...auditDbOptions(options.config), eventBus: options.eventBus, http: options.http }),
        AuditClientModule.forService('audit'),
        EventsModule.forHandlers(),
      ],
      controllers: [HistoryController, AuditEventsController],
      providers: [AuditLogRepository, PeopleRepository, AuditLogService],
    };
  }
}

export { writerRole };
