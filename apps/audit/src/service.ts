import type { ServiceDefinition } from '@medfolio/runtime/service-kit';
import { AuditAppModule, auditDbOptions } from './app.module';
import { AuditConfig } from './config';

/** The audit service as its own process (main.ts) and the one-process launcher (apps/medfolio) run it. */
export const AUDIT_SERVICE: ServiceDefinition<AuditConfig> = {
  name: 'audit',
  config: AuditConfig,
  module: (options) => AuditAppModule.register(options),
  database: auditDbOptions,
};
