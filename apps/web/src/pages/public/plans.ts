/**
 * Membership plans (spec section 9), shared by the pricing page and checkout. Prices are whole US
 * dollars. The eight price ids are ours; billing maps each to the payment provider's price.
 */
export type BillingMode = 'monthly' | 'yearly';

/** Internal tier ids (section 3): 'pro' is shown to users as 'Family'. */
export type PlanTier = 'basic' | 'standard' | 'plus' | 'pro';

export const PRICE_BASIC_MONTHLY = 'price_basic_monthly';
export const PRICE_BASIC_YEARLY = 'price_basic_yearly';
export const PRICE_STANDARD_MONTHLY = 'price_standard_monthly';
export const PRICE_STANDARD_YEARLY = 'price_standard_yearly';
export const PRICE_PLUS_MONTHLY = 'price_plus_monthly';
export const PRICE_PLUS_YEARLY = 'price_plus_yearly';
export const PRICE_PRO_MONTHLY = 'price_pro_monthly';
export const PRICE_PRO_YEARLY = 'price_pro_yearly';

export const DEFAULT_BILLING_MODE: BillingMode = 'yearly';

export interface Plan {
  tier: PlanTier;
  /** The name users see. */
  name: string;
  /** One line under the name. */
  tagline: string;
  /** Price in USD per billing period. */
  price: Record<BillingMode, number>;
  priceId: Record<BillingMode, string>;
  /** How many documents the plan holds, as shown ('25+' for Family). */
  documents: string;
  features: string[];
  /** Plus is marked 'Most Popular'. */
  popular: boolean;
  /** The call to action on its card. */
  cta: string;
}

/**
 * What Plus and Family add, as the product does it: the Trends page for every test and the timeline
 * (other plans see a preview of one measure), and contact messages marked priority with the faster answer time.
 */
export const ADVANCED_ANALYTICS = 'Advanced analytics: trends of your lab results and vital signs, and a timeline';
export const PRIORITY_SUPPORT = 'Priority support: your messages answered first';

/**
 * What Family adds, as the product does it (docs/guide/family.md): a record for each child in the
 * household's documents, caregivers invited with a view or manage role, and the holder's controls.
 */
export const TEAM_COLLABORATION = 'Team collaboration: records for your children, caregivers invited to view or manage';
export const ADMIN_CONTROLS = 'Admin controls: see who has access and their last activity; change or revoke it at once';

/** Included in every plan, Free too: the summary, its QR code and share links, and the wallet card. */
export const EVERY_PLAN = ['AI-driven summary of your records', 'QR code and wallet card sharing'];

export const FREE_PLAN = {
  name: 'Free',
  tagline: 'Try Medfolio with your most important records.',
  price: 0,
  documents: '2',
  features: ['2 documents only', ...EVERY_PLAN, 'Access from any device'],
} as const;

export const PLANS: readonly Plan[] = [
  {
    tier: 'basic',
    name: 'Basic',
    tagline: 'For a few key records.',
    price: { monthly: 8, yearly: 80 },
    priceId: { monthly: PRICE_BASIC_MONTHLY, yearly: PRICE_BASIC_YEARLY },
    documents: '5',
    features: ['Up to 5 documents', ...EVERY_PLAN],
    popular: false,
    cta: 'Choose Basic',
  },
  {
    tier: 'standard',
    name: 'Standard',
    tagline: 'For a growing medical history.',
    price: { monthly: 12, yearly: 120 },
    priceId: { monthly: PRICE_STANDARD_MONTHLY, yearly: PRICE_STANDARD_YEARLY },
    documents: '12',
    features: ['Up to 12 documents', ...EVERY_PLAN],
    popular: false,
    cta: 'Choose Standard',
  },
  {
    tier: 'plus',
    name: 'Plus',
    tagline: 'For ongoing care with several doctors.',
    price: { monthly: 24, yearly: 240 },
    priceId: { monthly: PRICE_PLUS_MONTHLY, yearly: PRICE_PLUS_YEARLY },
    documents: '25',
    features: ['Up to 25 documents', ...EVERY_PLAN, PRIORITY_SUPPORT, ADVANCED_ANALYTICS],
    popular: true,
    cta: 'Get Started',
  },
  {
    tier: 'pro',
    name: 'Family',
    tagline: 'For the whole household.',
    price: { monthly: 49, yearly: 490 },
    priceId: { monthly: PRICE_PRO_MONTHLY, yearly: PRICE_PRO_YEARLY },
    documents: '25+',
    features: [
      '25+ documents',
      ...EVERY_PLAN,
      PRIORITY_SUPPORT,
      ADVANCED_ANALYTICS,
      TEAM_COLLABORATION,
      ADMIN_CONTROLS,
    ],
    popular: false,
    cta: 'Choose Family',
  },
];

/** Every price id, with the plan and billing mode it stands for. */
export const PRICE_IDS: readonly string[] = PLANS.flatMap((plan) => [plan.priceId.monthly, plan.priceId.yearly]);

export interface PlanChoice {
  plan: Plan;
  mode: BillingMode;
  priceId: string;
}

/** The plan and billing mode of a price id; null when it is none of ours. */
export function findPrice(priceId: string | null | undefined): PlanChoice | null {
  for (const plan of PLANS) {
    for (const mode of ['monthly', 'yearly'] as const) {
      if (plan.priceId[mode] === priceId) return { plan, mode, priceId: plan.priceId[mode] };
    }
  }
  return null;
}

/** Checkout's reading of ?price_id= (section 2): unknown or missing falls back to Basic monthly. */
export function planForCheckout(priceId: string | null | undefined): PlanChoice {
  return findPrice(priceId) ?? { plan: PLANS[0] as Plan, mode: 'monthly', priceId: PRICE_BASIC_MONTHLY };
}

/** The checkout page for one price. */
export function checkoutPath(priceId: string): string {
  return `/checkout?price_id=${encodeURIComponent(priceId)}`;
}

/** "$80" (whole dollars) or "$80.50". */
export function formatUsd(amount: number): string {
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: Number.isInteger(amount) ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(amount);
}

export const PERIOD_LABEL: Record<BillingMode, string> = { monthly: '/month', yearly: '/year' };
