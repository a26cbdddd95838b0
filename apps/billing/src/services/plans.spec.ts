import { PlanCatalogue } from './plans';

const defaults = { priceBasic: '8/80', priceStandard: '12/120', pricePlus: '24/240', priceFamily: '49/490', taxPercent: 8 };

describe('plans as configuration', () => {
  it('has the eight price ids of the web app, each for one plan and period', () => {
    const catalogue = new PlanCatalogue(defaults);
    expect(catalogue.prices.map((p) => `${p.lookupKey}=${p.amountCents}`)).toEqual([
      'price_basic_monthly=800',
      'price_basic_yearly=8000',
      'price_standard_monthly=1200',
      'price_standard_yearly=12000',
      'price_plus_monthly=2400',
      'price_plus_yearly=24000',
      'price_pro_monthly=4900',
      'price_pro_yearly=49000',
    ]);
  });

  it('finds a price only when the tier and the period agree with it', () => {
    const catalogue = new PlanCatalogue(defaults);
    expect(catalogue.find('price_plus_yearly', 'plus', 'yearly')).toMatchObject({ plan: 'plus', mode: 'yearly' });
    expect(catalogue.find('price_plus_yearly', 'basic', 'yearly')).toBeNull();
    expect(catalogue.find('price_plus_yearly', 'plus', 'monthly')).toBeNull();
    expect(catalogue.find('price_free_monthly')).toBeNull();
  });

  it('totals the price plus the tax, rounded to cents', () => {
    const catalogue = new PlanCatalogue({ ...defaults, priceBasic: '8.99/89.95', taxPercent: 8 });
    expect(catalogue.order(catalogue.of('basic', 'monthly'))).toEqual({ subtotal_cents: 899, tax_cents: 72, total_cents: 971 }); // 8.99 × 1.08 = 9.7092
    expect(catalogue.order(catalogue.of('basic', 'yearly'))).toEqual({ subtotal_cents: 8995, tax_cents: 720, total_cents: 9715 }); // 89.95 × 1.08 = 97.146
    expect(catalogue.order(catalogue.of('pro', 'yearly'))).toEqual({ subtotal_cents: 49000, tax_cents: 3920, total_cents: 52920 });
  });
});
