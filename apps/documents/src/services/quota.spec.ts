import { DomainError } from '@medfolio/contracts';
import { assertRoom, planLimitsFrom } from './quota';

const defaults = planLimitsFrom({
  quotaFree: '2',
  quotaBasic: '5',
  quotaStandard: '12',
  quotaPlus: '25',
  quotaFamily: 'unlimited',
});

function refusal(run: () => void): DomainError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a refusal');
}

describe('plan quotas', () => {
  it('reads the limits from configuration, "unlimited" meaning no limit', () => {
    expect(defaults).toEqual({ free: 2, basic: 5, standard: 12, plus: 25, pro: Infinity });
  });

  it('lets a plan fill up to its limit, and no further', () => {
    expect(() => assertRoom(defaults, 'free', 0, 2)).not.toThrow();
    expect(() => assertRoom(defaults, 'free', 1, 1)).not.toThrow();
    expect(() => assertRoom(defaults, 'pro', 10_000, 20)).not.toThrow();
    expect(refusal(() => assertRoom(defaults, 'free', 2, 1)).code).toBe('QUOTA_EXCEEDED');
  });

  it.each([
    [
      'free',
      2,
      1,
      'Your Free plan allows 2 documents and you have 2 documents stored, so this file cannot be added. The Basic plan allows 5 documents: see /membership.',
    ],
    [
      'free',
      0,
      3,
      'Your Free plan allows 2 documents and you have none stored, so these 3 files cannot be added. The Basic plan allows 5 documents: see /membership.',
    ],
    [
      'free',
      1,
      10,
      'Your Free plan allows 2 documents and you have 1 document stored, so these 10 files cannot be added. The Standard plan allows 12 documents: see /membership.',
    ],
    [
      'basic',
      5,
      1,
      'Your Basic plan allows 5 documents and you have 5 documents stored, so this file cannot be added. The Standard plan allows 12 documents: see /membership.',
    ],
    [
      'plus',
      25,
      1,
      'Your Plus plan allows 25 documents and you have 25 documents stored, so this file cannot be added. The Family plan allows unlimited documents: see /membership.',
    ],
  ] as const)('on %s with %d stored, adding %d, names the plan that allows more', (plan, stored, adding, message) => {
    expect(refusal(() => assertRoom(defaults, plan, stored, adding)).message).toBe(message);
  });

  it("says whose record is full when it is a family member's, counted with the household's documents", () => {
    const capped = planLimitsFrom({ quotaFree: '2', quotaBasic: '5', quotaStandard: '12', quotaPlus: '25', quotaFamily: '50' });
    expect(refusal(() => assertRoom(capped, 'pro', 50, 1, 'Leo')).message).toBe(
      "Leo's record is full: your household's Family plan allows 50 documents and you have 50 documents stored, so this file cannot be added. Delete some documents to make room.",
    );
  });

  it('says to delete documents when no plan would take them all', () => {
    const capped = planLimitsFrom({
      quotaFree: '2',
      quotaBasic: '5',
      quotaStandard: '12',
      quotaPlus: '25',
      quotaFamily: '50',
    });
    expect(refusal(() => assertRoom(capped, 'pro', 50, 1)).message).toBe(
      'Your Family plan allows 50 documents and you have 50 documents stored, so this file cannot be added. Delete some documents to make room.',
    );
    expect(refusal(() => assertRoom(capped, 'standard', 12, 40)).message).toMatch(
      /Delete some documents to make room\.$/,
    );
  });
});
