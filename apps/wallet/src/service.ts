import type { ServiceDefinition } from '@medfolio/runtime/service-kit';
import { WalletAppModule, walletDbOptions } from './app.module';
import { WalletConfig } from './config';

/** The wallet service as its own process (main.ts) and the one-process launcher (apps/medfolio) run it. */
export const WALLET_SERVICE: ServiceDefinition<WalletConfig> = {
  name: 'wallet',
  config: WalletConfig,
  module: (options) => WalletAppModule.register(options),
  database: walletDbOptions,
  /** Serves internal HTTP: the signed passes' download links (GET /internal/files/wallet-passes/...). */
  internalHttp: true,
};
