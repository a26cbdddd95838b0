import { Inject, Injectable, Logger } from '@nestjs/common';
import { PLAN_NAMES } from '@medfolio/contracts';
import { BillingConfig } from '../config';
import { StripeRepository, type StripeCatalogue } from '../repositories/stripe.repository';
import { PlanCatalogue } from './plans';

/**
 * The plans (configuration) and their Stripe ids. The Stripe side is found or created once per
 * process on first use (the same idempotent routine as the setup command), then kept.
 */
@Injectable()
export class CatalogueService {
  private readonly logger = new Logger(CatalogueService.name);
  readonly plans: PlanCatalogue;
  private stripeIds?: Promise<StripeCatalogue>;

  constructor(
    @Inject(BillingConfig) config: BillingConfig,
    @Inject(StripeRepository) private readonly stripe: StripeRepository,
  ) {
    this.plans = new PlanCatalogue(config);
  }

  /** Products, prices (by lookup key) and the tax rate in Stripe; what had to be created. */
  async setup(): Promise<StripeCatalogue & { created: string[] }> {
    return this.stripe.ensureCatalogue(this.plans.prices, this.plans.taxPercent, PLAN_NAMES);
  }

  stripeCatalogue(): Promise<StripeCatalogue> {
    this.stripeIds ??= this.setup().then(
      (result) => {
        if (result.created.length > 0) this.logger.log({ created: result.created }, 'Stripe catalogue completed');
        return result;
      },
      (error: unknown) => {
        this.stripeIds = undefined; // try again on the next checkout
        throw error;
      },
    );
    return this.stripeIds;
  }
}
