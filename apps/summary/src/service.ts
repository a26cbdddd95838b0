import type { ServiceDefinition } from '@medfolio/runtime/service-kit';
import { SummaryAppModule, summaryDbOptions } from './app.module';
import { SummaryConfig } from './config';

/** The summary service as its own process (main.ts) and the one-process launcher (apps/medfolio) run it. */
export const SUMMARY_SERVICE: ServiceDefinition<SummaryConfig> = {
  name: 'summary',
  config: SummaryConfig,
  module: (options) => SummaryAppModule.register(options),
  database: summaryDbOptions,
  /** No HTTP routes of its own: it reads documents' files over their internal HTTP. */
  internalHttp: false,
  callsInternalHttp: ['documents'],
};
