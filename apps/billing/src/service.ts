import type { ServiceDefinition } from '@medfolio/runtime/service-kit';
import { BillingAppModule, billingDbOptions } from './app.module';
import { BillingConfig } from './config';

/** The billing service as its own process (main.ts) and the one-process launcher (apps/medfolio) run it. */
export const BILLING_SERVICE: ServiceDefinition<BillingConfig> = {
  name: 'billing',
  config: BillingConfig,
  module: (options) => BillingAppModule.register(options),
  database: billingDbOptions,
};
