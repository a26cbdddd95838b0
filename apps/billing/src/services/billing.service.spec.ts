import { AuditRecorder } from '@medfolio/audit-client';
import { BILLING_MESSAGES } from '@medfolio/contracts';
import { automock } from '@medfolio/testing';
import { BillingConfig } from '../config';
import { BillingRepository } from '../repositories/billing.repository';
import { ServicesRepository } from '../repositories/services.repository';
import { StripeRepository } from '../repositories/stripe.repository';
import { BillingService } from './billing.service';
import { CatalogueService } from './catalogue.service';

/** Without STRIPE_SECRET_KEY (the one-process default): plans shown, Free for everyone, checkout says why not. */
describe('billing without a Stripe key', () => {
  const config = new BillingConfig();
  const stripe = new StripeRepository(config);
  const billing = automock(BillingRepository);
  const service = new BillingService(new CatalogueService(config, stripe), billing, stripe, automock(ServicesRepository), automock(AuditRecorder));
  const caller = { userId: 'u1', roles: ['patient'], correlationId: 'c' };

  beforeEach(() => {
    billing.subscriptionsOf.mockResolvedValue([]);
    billing.activeGrants.mockResolvedValue([]);
    billing.entitlement.mockResolvedValue(null);
  });

  it('lists the plans and says payments are off', () => {
    expect(stripe.configured).toBe(false);
    expect(service.plans()).toMatchObject({ payments_configured: false, tax_percent: 8 });
  });

  it('answers checkout and cancel with the clear message, and touches no data', async () => {
    await expect(service.checkout(caller, { price_id: 'price_basic_monthly', tier: 'basic', mode: 'monthly' })).rejects.toMatchObject({ code: 'UNAVAILABLE', message: BILLING_MESSAGES.notConfigured });
    await expect(service.cancel(caller)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(billing.saveSubscription).not.toHaveBeenCalled();
  });

  it('shows the Free plan as the membership', async () => {
    await expect(service.membership(caller)).resolves.toMatchObject({ plan: 'free', plan_name: 'Free', status: 'none', autopay: false, payments_configured: false });
  });
});
