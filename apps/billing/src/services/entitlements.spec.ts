import { entitledPlan, isNewer, subscriptionEntitles } from './entitlements';

const now = new Date('2026-11-24T12:00:00Z');
const later = new Date(now.getTime() + 86_400_000);
const earlier = new Date(now.getTime() - 86_400_000);

describe('entitlements', () => {
  it('active and trialing give their plan; past_due only within its grace period; the rest nothing', () => {
    expect(subscriptionEntitles({ status: 'active', graceUntil: null }, now)).toBe(true);
    expect(subscriptionEntitles({ status: 'trialing', graceUntil: null }, now)).toBe(true);
    expect(subscriptionEntitles({ status: 'past_due', graceUntil: later }, now)).toBe(true);
    expect(subscriptionEntitles({ status: 'past_due', graceUntil: earlier }, now)).toBe(false);
    for (const status of ['incomplete', 'incomplete_expired', 'unpaid', 'canceled', 'paused']) {
      expect(subscriptionEntitles({ status, graceUntil: later }, now)).toBe(false);
    }
  });

  it('the largest plan wins among subscriptions and grants in force; none is Free', () => {
    expect(entitledPlan([], [], now)).toBe('free');
    const grant = { plan: 'basic' as const, startsAt: earlier, endsAt: later };
    expect(entitledPlan([{ status: 'canceled', graceUntil: null, plan: 'pro' }], [grant], now)).toBe('basic');
    expect(entitledPlan([{ status: 'active', graceUntil: null, plan: 'standard' }], [grant], now)).toBe('standard');
    expect(entitledPlan([], [{ ...grant, endsAt: now }], now)).toBe('free');
  });

  it('a later event replaces the state; an older one never does; in one second the later status in a life wins', () => {
    expect(isNewer(null, 100, 'incomplete')).toBe(true);
    expect(isNewer({ stateAt: 0, status: 'incomplete' }, 1, 'incomplete')).toBe(true);
    expect(isNewer({ stateAt: 100, status: 'active' }, 101, 'incomplete')).toBe(true);
    expect(isNewer({ stateAt: 100, status: 'active' }, 99, 'canceled')).toBe(false);
    expect(isNewer({ stateAt: 100, status: 'active' }, 100, 'incomplete')).toBe(false);
    expect(isNewer({ stateAt: 100, status: 'active' }, 100, 'canceled')).toBe(true);
  });
});
