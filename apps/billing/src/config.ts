import { IsOptional, Matches } from 'class-validator';
import { CommonConfig, Env, WholeNumber, WithPublicUrl } from '@medfolio/config';

const PRICE_PAIR = /^\d{1,6}(\.\d{2})?\/\d{1,7}(\.\d{2})?$/;
const PRICE_MESSAGE = { message: 'must be "<monthly>/<yearly>" in dollars, e.g. 8/80' };

/**
 * The billing service's settings. Without STRIPE_SECRET_KEY (the one-process default) payments are
 * off: plans are shown, everyone is on Free, and checkout says that payments are not configured.
 */
export class BillingConfig extends WithPublicUrl(CommonConfig) {
  /** Stripe's secret key (sk_test_… in test mode). Unset: payments are not configured. */
  @Env('STRIPE_SECRET_KEY', { sensitive: true })
  @IsOptional()
  @Matches(/^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/, { message: 'must be a Stripe secret key (sk_test_…)' })
  stripeSecretKey?: string;

  /** The signing secret of the webhook endpoint (whsec_…); webhooks are refused without it. */
  @Env('STRIPE_WEBHOOK_SECRET', { sensitive: true })
  @IsOptional()
  @Matches(/^whsec_[A-Za-z0-9_]+$/, { message: 'must be a webhook signing secret (whsec_…)' })
  stripeWebhookSecret?: string;

  /** Another Stripe API address, e.g. stripe-mock's http://127.0.0.1:12111 (tests, local runs). */
  @Env('STRIPE_API_BASE')
  @IsOptional()
  @Matches(/^https?:\/\/[^\s/]+(:\d+)?\/?$/, { message: 'must be an http(s) URL of a host' })
  stripeApiBase?: string;

  /** Prices in USD, "<monthly>/<yearly>" (spec section 9). */
  @Env('BILLING_PRICE_BASIC')
  @Matches(PRICE_PAIR, PRICE_MESSAGE)
  priceBasic = '8/80';

  @Env('BILLING_PRICE_STANDARD')
  @Matches(PRICE_PAIR, PRICE_MESSAGE)
  priceStandard = '12/120';

  @Env('BILLING_PRICE_PLUS')
  @Matches(PRICE_PAIR, PRICE_MESSAGE)
  pricePlus = '24/240';

  @Env('BILLING_PRICE_FAMILY')
  @Matches(PRICE_PAIR, PRICE_MESSAGE)
  priceFamily = '49/490';

  /** The sales tax on every line, in percent (the order summary's 8%). */
  @Env('BILLING_TAX_PERCENT')
  @WholeNumber(0, 50)
  taxPercent = 8;

  /** Days a past-due plan stays after the first failed payment. */
  @Env('BILLING_GRACE_DAYS')
  @WholeNumber(0, 60)
  graceDays = 7;

  /** Referral invitations one user may send in 24 hours. */
  @Env('REFERRAL_INVITES_PER_DAY')
  @WholeNumber(1, 1000)
  invitesPerDay = 10;

  /** How often expired grace periods and referral months are looked for (ms). */
  @Env('BILLING_SWEEP_INTERVAL_MS')
  @WholeNumber(100, 3_600_000)
  sweepIntervalMs = 60_000;
}
