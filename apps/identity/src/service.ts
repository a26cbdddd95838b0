import type { ServiceDefinition } from '@medfolio/runtime/service-kit';
import { IdentityAppModule, identityDbOptions } from './app.module';
import { IdentityConfig } from './config';

/** The identity service as its own process (main.ts) and the one-process launcher (apps/medfolio) run it. */
export const IDENTITY_SERVICE: ServiceDefinition<IdentityConfig> = {
  name: 'identity',
  config: IdentityConfig,
  module: (options) => IdentityAppModule.register(options),
  database: identityDbOptions,
  /** Serves internal HTTP (profile pictures, its JWKS) besides request/reply. */
  internalHttp: true,
};
