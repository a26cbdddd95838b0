import {
  checkoutPath,
  EVERY_PLAN,
  FREE_PLAN,
  findPrice,
  formatUsd,
  planForCheckout,
  PLANS,
  PRICE_BASIC_MONTHLY,
  PRICE_IDS,
  PRICE_PRO_YEARLY,
  PRICE_STANDARD_MONTHLY,
} from './plans';

describe('plans', () => {
  it('has the section 9 prices and documents, in USD', () => {
    expect(PLANS.map((p) => [p.tier, p.name, p.price.monthly, p.price.yearly, p.documents])).toEqual([
      ['basic', 'Basic', 8, 80, '5'],
      ['standard', 'Standard', 12, 120, '12'],
      ['plus', 'Plus', 24, 240, '25'],
      ['pro', 'Family', 49, 490, '25+'],
    ]);
  });

  it('lists the summary, QR code and wallet card on every plan, Free included', () => {
    expect(EVERY_PLAN).toEqual(['AI-driven summary of your records', 'QR code and wallet card sharing']);
    for (const features of [FREE_PLAN.features, ...PLANS.map((p) => p.features)]) expect(features).toEqual(expect.arrayContaining(EVERY_PLAN));
  });

  it('has eight distinct price ids', () => {
    expect(new Set(PRICE_IDS).size).toBe(8);
  });

  it('maps a price id back to its plan and billing mode', () => {
    expect(findPrice(PRICE_PRO_YEARLY)).toMatchObject({ plan: { tier: 'pro', name: 'Family' }, mode: 'yearly' });
    expect(findPrice(PRICE_STANDARD_MONTHLY)).toMatchObject({ plan: { tier: 'standard' }, mode: 'monthly' });
    expect(findPrice('price_unknown')).toBeNull();
  });

  it('falls back to Basic monthly at checkout for an unknown or missing price id', () => {
    for (const id of [null, undefined, '', 'price_unknown']) {
      expect(planForCheckout(id)).toMatchObject({
        plan: { tier: 'basic' },
        mode: 'monthly',
        priceId: PRICE_BASIC_MONTHLY,
      });
    }
  });

  it('builds checkout links and formats prices', () => {
    expect(checkoutPath(PRICE_PRO_YEARLY)).toBe('/checkout?price_id=price_pro_yearly');
    expect(formatUsd(490)).toBe('$490');
    expect(formatUsd(86.4)).toBe('$86.40');
  });
});
