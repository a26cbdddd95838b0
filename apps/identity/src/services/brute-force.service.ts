import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@medfolio/contracts';
import { IdentityConfig } from '../config';
import { AuthFailuresRepository } from '../repositories/auth-failures.repository';
import { normalizeEmail } from '../repositories/users.repository';

export type AttemptScope = 'login' | 'otp' | 'reset';
const WINDOW_MS = 60 * 60 * 1000;

/**
 * Limits failed attempts per account and per client address over a sliding hour: the 101st failure
 * in an hour on one account is refused (429 with Retry-After); the oldest failure leaving the window
 * lifts the limit again, so nobody is locked out for good.
 */
@Injectable()
export class BruteForceService {
  constructor(
    @Inject(AuthFailuresRepository) private readonly failures: AuthFailuresRepository,
    @Inject(IdentityConfig) private readonly config: IdentityConfig,
  ) {}

  async assertAllowed(scope: AttemptScope, email: string | undefined, ip: string | undefined, now = new Date()): Promise<void> {
    const since = new Date(now.getTime() - WINDOW_MS);
    const checks: [string, number][] = [];
    if (email) checks.push([accountKey(email), this.config.failuresPerAccountPerHour]);
    if (ip) checks.push([`ip:${ip}`, this.config.failuresPerIpPerHour]);
    for (const [key, limit] of checks) {
      const { count, oldest } = await this.failures.window(scope, key, since);
      if (count >= limit) {
        const retryAfter = Math.max(1, Math.ceil(((oldest?.getTime() ?? now.getTime()) + WINDOW_MS - now.getTime()) / 1000));
        throw new DomainError('RATE_LIMITED', `Too many failed attempts. Please try again in ${formatWait(retryAfter)}.`, {
          retry_after: [String(retryAfter)],
        });
      }
    }
  }

  async recordFailure(scope: AttemptScope, email: string | undefined, ip: string | undefined): Promise<void> {
    await this.failures.record(scope, [...(email ? [accountKey(email)] : []), ...(ip ? [`ip:${ip}`] : [])]);
  }

  async recordSuccess(scope: AttemptScope, email: string): Promise<void> {
    await this.failures.clear(scope, accountKey(email));
  }
}

function accountKey(email: string): string {
  return `account:${normalizeEmail(email)}`;
}

export function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
