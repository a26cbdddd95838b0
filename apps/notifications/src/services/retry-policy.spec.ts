import { afterFailure, DEFAULT_RETRY_POLICY, retryDelayMs, type RetryPolicy } from './retry-policy';

const noJitter = () => 0;
const maxJitter = () => 0.999999;

describe('retry policy', () => {
  it('doubles from 5 s and is capped at 5 minutes', () => {
    const schedule = Array.from({ length: 10 }, (_, i) => retryDelayMs(i + 1, DEFAULT_RETRY_POLICY, noJitter));
    expect(schedule).toEqual([5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000, 300_000]);
  });

  it('adds up to 20 % jitter, never past the cap', () => {
    expect(retryDelayMs(1, DEFAULT_RETRY_POLICY, maxJitter)).toBe(6_000);
    expect(retryDelayMs(6, DEFAULT_RETRY_POLICY, maxJitter)).toBe(192_000);
    expect(retryDelayMs(7, DEFAULT_RETRY_POLICY, maxJitter)).toBe(300_000);
    for (let attempt = 1; attempt < 50; attempt++) {
      const delay = retryDelayMs(attempt, DEFAULT_RETRY_POLICY);
      expect(delay).toBeGreaterThanOrEqual(Math.min(5_000 * 2 ** (attempt - 1), 300_000));
      expect(delay).toBeLessThanOrEqual(300_000);
    }
  });

  it('survives silly attempt counts', () => {
    expect(retryDelayMs(0, DEFAULT_RETRY_POLICY, noJitter)).toBe(5_000);
    expect(retryDelayMs(10_000, DEFAULT_RETRY_POLICY, noJitter)).toBe(300_000);
  });

  describe('after a failed attempt', () => {
    const policy: RetryPolicy = { baseMs: 1_000, capMs: 60_000, giveUpAfterMs: 3 * 86_400_000 };
    const queuedAt = new Date('2026-01-01T00:00:00Z');

    it('retries a temporary failure after the backoff delay', () => {
      const now = new Date('2026-01-01T00:10:00Z');
      expect(afterFailure({ attempts: 3, queuedAt, now, permanent: false }, policy, noJitter)).toEqual({ state: 'retrying', delayMs: 4_000 });
    });

    it('gives up on a permanent refusal at once', () => {
      expect(afterFailure({ attempts: 1, queuedAt, now: queuedAt, permanent: true }, policy)).toEqual({ state: 'failed' });
    });

    it('gives up once the message has waited the whole give-up time', () => {
      const justBefore = new Date(queuedAt.getTime() + policy.giveUpAfterMs - 1);
      const atDeadline = new Date(queuedAt.getTime() + policy.giveUpAfterMs);
      expect(afterFailure({ attempts: 900, queuedAt, now: justBefore, permanent: false }, policy).state).toBe('retrying');
      expect(afterFailure({ attempts: 900, queuedAt, now: atDeadline, permanent: false }, policy)).toEqual({ state: 'failed' });
    });
  });
});
