import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@medfolio/contracts';
import { IdentityConfig } from '../config';
import { AuthFailuresRepository } from '../repositories/auth-failures.repository';
import { normalizeEmail } from '../repositories/users.repository';

export type AttemptScope = 'login' | 'otp' | 'reset';
const WINDOW_MS = 60 * 60 * 1000;

/**
 * What the account-wide limit does to a client the account does not know: `refuse` (429, as the
 * per-client limits do), `step-up` (reported: the sign-in asks for an e-mailed code instead of
 * refusing, so attackers cannot lock the owner out from a new address) or `ignore` (an attempt
 * bounded otherwise: a sign-in code allows 5 tries and is only sent after the right password).
 */
export type AccountWideLimit = 'refuse' | 'step-up' | 'ignore';
export type Allowed = 'ok' | 'step-up';

/**
 * Anti-automation without denial of service (OWASP ASVS V2.2): failed attempts are counted over a
 * sliding hour per client address, per account AND client together, and per account.
 * - One client guessing one account is stopped after AUTH_FAILURES_PER_ACCOUNT_PER_CLIENT_PER_HOUR
 *   (that pair only: the owner signing in from elsewhere is not affected).
 * - One client trying many accounts is stopped after AUTH_FAILURES_PER_IP_PER_HOUR.
 * - Many clients guessing one account (a distributed attack) hit AUTH_FAILURES_PER_ACCOUNT_PER_HOUR:
 *   then clients the account already knows (a successful sign-in, code or reset link from that
 *   address in the last 30 days) go on as before, and a sign-in from any other client needs a code
 *   e-mailed to the account as well as the password (a step-up: the answer is the same whatever the
 *   password, so guessing learns nothing), so the owner still gets in from a new address and the
 *   attackers do not. A genuine reset link is never refused (it proves the mailbox).
 * The oldest failure leaving the hour lifts a limit again: nobody is locked out for good.
 */
@Injectable()
export class BruteForceService {
  constructor(
    @Inject(AuthFailuresRepository) private readonly failures: AuthFailuresRepository,
    @Inject(IdentityConfig) private readonly config: IdentityConfig,
  ) {}

  /**
   * 429 (RATE_LIMITED) past the per-client limits; past the account-wide one, for a client the
   * account does not know, what `accountWide` says ('step-up' is returned, not thrown).
   */
  async assertAllowed(
    scope: AttemptScope,
    email: string | undefined,
    ip: string | undefined,
    now = new Date(),
    options: { accountWide?: AccountWideLimit } = {},
  ): Promise<Allowed> {
    const since = new Date(now.getTime() - WINDOW_MS);
    const checks: [string, number][] = [];
    if (ip) checks.push([ipKey(ip), this.config.failuresPerIpPerHour]);
    if (email && ip) checks.push([pairKey(email, ip), this.config.failuresPerAccountPerClientPerHour]);
    for (const [key, limit] of checks) {
      const { count, oldest } = await this.failures.window(scope, key, since);
      if (count >= limit) throw rateLimited(oldest, now);
    }
    const accountWide = options.accountWide ?? 'refuse';
    // The account-wide limit binds only clients the account does not know.
    if (!email || accountWide === 'ignore' || (ip && (await this.failures.isKnownClient(knownKey(email, ip), now)))) return 'ok';
    const { count, oldest } = await this.failures.window(scope, accountKey(email), since);
    if (count < this.config.failuresPerAccountPerHour) return 'ok';
    if (accountWide === 'step-up') return 'step-up';
    throw rateLimited(oldest, now);
  }

  async recordFailure(scope: AttemptScope, email: string | undefined, ip: string | undefined): Promise<void> {
    const keys = [...(ip ? [ipKey(ip)] : []), ...(email ? [accountKey(email)] : []), ...(email && ip ? [pairKey(email, ip)] : [])];
    await this.failures.record(scope, keys);
  }

  /**
   * Mail to one address: true (and counted) while fewer than `perHour` went to it in the last hour.
   * `kind` keeps a separate count (sign-in codes are not held back by reset links someone else asked for).
   */
  async allowMail(email: string, perHour: number, now = new Date(), kind?: string): Promise<boolean> {
    const key = `mail-to:${kind ? `${kind}:` : ''}${normalizeEmail(email)}`;
    const { count } = await this.failures.window('mail', key, new Date(now.getTime() - WINDOW_MS));
    if (count >= perHour) return false;
    await this.failures.record('mail', [key]);
    return true;
  }

  /**
   * Step-up: a sign-in code was e-mailed for this account to the client that gave the right password.
   * Only that client may try the code, so others cannot use up its 5 tries (and so keep the owner out).
   */
  async rememberStepUp(email: string, ip: string | undefined): Promise<void> {
    if (ip) await this.failures.record('step-up', [pairKey(email, ip)]);
  }

  /** Whether this client was sent a sign-in code for this account in the last `withinMs` (no address: yes). */
  async stepUpPending(email: string, ip: string | undefined, withinMs: number, now = new Date()): Promise<boolean> {
    if (!ip) return true;
    return (await this.failures.window('step-up', pairKey(email, ip), new Date(now.getTime() - withinMs))).count > 0;
  }

  /**
   * The account proved itself from this client (password, e-mailed code or reset link): its failures
   * from here are forgotten and the client is known to the account from now on. A proof by e-mail
   * (`clearAccount`) also lifts the account-wide count, since whoever reads the mailbox is the owner.
   */
  async recordSuccess(scope: AttemptScope, email: string, ip?: string, options: { clearAccount?: boolean } = {}): Promise<void> {
    if (ip) {
      await this.failures.clear(scope, pairKey(email, ip));
      await this.failures.rememberClient(knownKey(email, ip));
    }
    if (options.clearAccount || !ip) await this.failures.clear(scope, accountKey(email));
  }
}

function rateLimited(oldest: Date | null, now: Date): DomainError {
  const retryAfter = Math.max(1, Math.ceil(((oldest?.getTime() ?? now.getTime()) + WINDOW_MS - now.getTime()) / 1000));
  return new DomainError('RATE_LIMITED', `Too many failed attempts. Please try again in ${formatWait(retryAfter)}.`, {
    retry_after: [String(retryAfter)],
  });
}

function ipKey(ip: string): string {
  return `ip:${ip}`;
}

function pairKey(email: string, ip: string): string {
  return `account-client:${normalizeEmail(email)}|${ip}`;
}

function knownKey(email: string, ip: string): string {
  return `known:${normalizeEmail(email)}|${ip}`;
}

function accountKey(email: string): string {
  return `account:${normalizeEmail(email)}`;
}

export function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
