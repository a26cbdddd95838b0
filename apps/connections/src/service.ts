import type { ServiceDefinition } from '@medfolio/runtime/service-kit';
import { ConnectionsAppModule, connectionsDbOptions } from './app.module';
import { ConnectionsConfig } from './config';

/** The connections service as its own process (main.ts) and the one-process launcher (apps/medfolio) run it. */
export const CONNECTIONS_SERVICE: ServiceDefinition<ConnectionsConfig> = {
  name: 'connections',
  config: ConnectionsConfig,
  module: (options) => ConnectionsAppModule.register(options),
  database: connectionsDbOptions,
  callsInternalHttp: ['documents'],
};
