/** What the one-process launcher (apps/medfolio) needs to embed the billing service. Nothing else imports it. */
export { BillingAppModule } from './app.module';
export { BillingConfig } from './config';
export { BILLING_SERVICE } from './service';
