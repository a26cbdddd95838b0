/**
 * When to try a failed delivery again, and when to give up. Pure functions of the attempt count
 * and the clock, so the schedule is tested without waiting for it.
 */
export interface RetryPolicy {
  /** Delay after the first failed attempt; it doubles after each further one. */
  baseMs: number;
  /** The delay never grows past this (an SMTP server back up is used within this long). */
  capMs: number;
  /** A message still undelivered this long after it was queued is given up. */
  giveUpAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  baseMs: 5_000,
  capMs: 5 * 60_000,
  giveUpAfterMs: 72 * 3_600_000,
};

/** Up to this fraction is added to each delay, so messages queued together do not retry in lockstep. */
const JITTER = 0.2;

/**
 * The delay before attempt `failedAttempts + 1`: base × 2^(failedAttempts − 1), plus jitter,
 * capped. 5 s, 10 s, 20 s, 40 s, 80 s, 160 s, then 5 min (with the defaults).
 * @param random a number in [0, 1): Math.random, or a fixed value in tests.
 */
export function retryDelayMs(failedAttempts: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(failedAttempts, 1) - 1, 30);
  const delay = policy.baseMs * 2 ** exponent * (1 + JITTER * random());
  return Math.round(Math.min(policy.capMs, delay));
}

/** `delayMs` counts from now on the database's clock (every replica shares it). */
export type FailureOutcome = { state: 'retrying'; delayMs: number } | { state: 'failed' };

export interface FailedAttempt {
  /** Attempts made so far, this one included. */
  attempts: number;
  queuedAt: Date;
  now: Date;
  /** The server refused the message for good (e.g. 550 no such mailbox): retrying cannot help. */
  permanent: boolean;
}

/** After a failed attempt: retry later, or give up (a permanent refusal, or too long undelivered). */
export function afterFailure(attempt: FailedAttempt, policy: RetryPolicy, random: () => number = Math.random): FailureOutcome {
  if (attempt.permanent) return { state: 'failed' };
  if (attempt.now.getTime() - attempt.queuedAt.getTime() >= policy.giveUpAfterMs) return { state: 'failed' };
  return { state: 'retrying', delayMs: retryDelayMs(attempt.attempts, policy, random) };
}
