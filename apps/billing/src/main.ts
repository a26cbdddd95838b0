import 'reflect-metadata';
import { runServiceMain } from '@medfolio/runtime/service-kit';
import type { BillingConfig } from './config';
import { StripeRepository } from './repositories/stripe.repository';
import { CatalogueService } from './services/catalogue.service';
import { BILLING_SERVICE } from './service';

/**
 * `stripe-setup`: creates the products, prices (lookup keys = our price ids) and the tax rate in
 * Stripe, or finds them: safe to run again. Prints what it found and made.
 */
async function stripeSetup(config: BillingConfig): Promise<number> {
  if (!config.stripeSecretKey) {
    process.stderr.write('STRIPE_SECRET_KEY is not set: nothing to set up.\n');
    return 1;
  }
  const catalogue = new CatalogueService(config, new StripeRepository(config));
  const result = await catalogue.setup();
  process.stdout.write(
    `${JSON.stringify({ prices: Object.fromEntries(result.prices), tax_rate: result.taxRateId, created: result.created }, null, 2)}\n`,
  );
  return 0;
}

void runServiceMain({ ...BILLING_SERVICE, commands: { 'stripe-setup': stripeSetup } });
