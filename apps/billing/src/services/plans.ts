import { BILLING_MODES, PAID_PLAN_IDS, PLAN_NAMES, type BillingMode, type PaidPlanId, type PlanId, type PlanView } from '@medfolio/contracts';
import type { BillingConfig } from '../config';

/** One price of the catalogue: our id is Stripe's lookup key. */
export interface CataloguePrice {
  /** e.g. price_basic_monthly (the web app's id, and the price's lookup key in Stripe). */
  lookupKey: string;
  plan: PaidPlanId;
  mode: BillingMode;
  /** Whole cents, USD. */
  amountCents: number;
}

/** Plans as configuration (BILLING_PRICE_*): the prices billing charges and shows. */
export class PlanCatalogue {
  readonly prices: readonly CataloguePrice[];

  constructor(config: Pick<BillingConfig, 'priceBasic' | 'priceStandard' | 'pricePlus' | 'priceFamily' | 'taxPercent'>) {
    const pairs: Record<PaidPlanId, string> = { basic: config.priceBasic, standard: config.priceStandard, plus: config.pricePlus, pro: config.priceFamily };
    this.taxPercent = config.taxPercent;
    this.prices = PAID_PLAN_IDS.flatMap((plan) => {
      const [monthly, yearly] = pairs[plan].split('/').map(toCents) as [number, number];
      return BILLING_MODES.map((mode) => ({ lookupKey: priceId(plan, mode), plan, mode, amountCents: mode === 'monthly' ? monthly : yearly }));
    });
  }

  readonly taxPercent: number;

  /** The price for a checkout payload: the id must be ours and name the same tier and mode. */
  find(priceIdValue: string, tier?: string, mode?: string): CataloguePrice | null {
    const price = this.prices.find((p) => p.lookupKey === priceIdValue);
    if (!price) return null;
    if (tier !== undefined && price.plan !== tier) return null;
    if (mode !== undefined && price.mode !== mode) return null;
    return price;
  }

  of(plan: PaidPlanId, mode: BillingMode): CataloguePrice {
    return this.prices.find((p) => p.plan === plan && p.mode === mode)!;
  }

  /** Subtotal, tax (rounded to cents) and total: total = price × (1 + tax) rounded to cents. */
  order(price: CataloguePrice): { subtotal_cents: number; tax_cents: number; total_cents: number } {
    const tax = Math.round((price.amountCents * this.taxPercent) / 100);
    return { subtotal_cents: price.amountCents, tax_cents: tax, total_cents: price.amountCents + tax };
  }

  views(): PlanView[] {
    const free: PlanView = { id: 'free', name: PLAN_NAMES.free, monthly_cents: 0, yearly_cents: 0, price_ids: null };
    return [
      free,
      ...PAID_PLAN_IDS.map((plan) => ({
        id: plan as PlanId,
        name: PLAN_NAMES[plan],
        monthly_cents: this.of(plan, 'monthly').amountCents,
        yearly_cents: this.of(plan, 'yearly').amountCents,
        price_ids: { monthly: priceId(plan, 'monthly'), yearly: priceId(plan, 'yearly') },
      })),
    ];
  }
}

export function priceId(plan: PaidPlanId, mode: BillingMode): string {
  return `price_${plan}_${mode}`;
}

function toCents(dollars: string): number {
  return Math.round(Number(dollars) * 100);
}

/** Plans in order of size: a user with two sources of a plan gets the larger. */
export const PLAN_RANK: Record<PlanId, number> = { free: 0, basic: 1, standard: 2, plus: 3, pro: 4 };
