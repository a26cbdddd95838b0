import { Module, type DynamicModule } from '@nestjs/common';
import { AuditClientModule } from '@medfolio/audit-client';
import { EventsModule, type EventBus } from '@medfolio/messaging';
import { ServiceKitModule } from '@medfolio/runtime/service-kit';
import { BillingConfig } from './config';
import { BillingController } from './controllers/billing.controller';
import { IdentityEventsController } from './controllers/identity-events.controller';
import { BILLING_ENTITIES } from './entities';
import { BILLING_MIGRATIONS } from './migrations';
import { BillingRepository } from './repositories/billing.repository';
import { ReferralsRepository } from './repositories/referrals.repository';
import { ServicesRepository } from './repositories/services.repository';
import { StripeRepository } from './repositories/stripe.repository';
import { BillingService } from './services/billing.service';
import { CatalogueService } from './services/catalogue.service';
import { EntitlementsService } from './services/entitlements.service';
import { ReferralService } from './services/referral.service';
import { SweepService } from './services/sweep.service';
import { WebhookService } from './services/webhook.service';

export interface BillingAppOptions {
  config: BillingConfig;
  eventBus: EventBus;
  http: boolean;
}

export function billingDbOptions(config: BillingConfig) {
  return { name: 'billing' as const, config, entities: BILLING_ENTITIES, migrations: BILLING_MIGRATIONS };
}

/**
 * The billing service: plans and Stripe subscriptions (checkout, plan changes, cancellation), Stripe's
 * signed webhooks, the entitlement each user's subscriptions and grants give (published as
 * billing.entitlement.changed.v1 through the outbox), and the referral programme (identity's events).
 */
@Module({})
export class BillingAppModule {
  static register(options: BillingAppOptions): DynamicModule {
    return {
      module: BillingAppModule,
      imports: [
        ServiceKitModule.forService({
          ...billingDbOptions(options.config),
          eventBus: options.eventBus,
          http: options.http,
          // Publishes entitlement changes; consumes identity's account events (referrals).
          streams: ['BILLING', 'IDENTITY'],
          outbox: true,
        }),
        AuditClientModule.forService('billing'),
        EventsModule.forHandlers(),
      ],
      controllers: [BillingController, IdentityEventsController],
      providers: [
        { provide: BillingConfig, useValue: options.config },
        BillingRepository,
        ReferralsRepository,
        ServicesRepository,
        StripeRepository,
        CatalogueService,
        EntitlementsService,
        BillingService,
        WebhookService,
        ReferralService,
        SweepService,
      ],
    };
  }
}
