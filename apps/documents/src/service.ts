import type { ServiceDefinition } from '@medfolio/runtime/service-kit';
import { DocumentsAppModule, documentsDbOptions } from './app.module';
import { DocumentsConfig } from './config';

/** The documents service as its own process (main.ts) and the one-process launcher (apps/medfolio) run it. */
export const DOCUMENTS_SERVICE: ServiceDefinition<DocumentsConfig> = {
  name: 'documents',
  config: DocumentsConfig,
  module: (options) => DocumentsAppModule.register(options),
  database: documentsDbOptions,
  /** Serves internal HTTP (document uploads streamed from the gateway) besides request/reply. */
  internalHttp: true,
};
