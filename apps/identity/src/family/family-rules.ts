import type { AgeBand } from '@medfolio/contracts';

/**
 * The age and expiry rules of proxy access (docs/guide/family.md), as pure functions of a date of
 * birth and "now", so tests run them against any clock:
 * - a record's person under 13 is a child (the guardian manages everything), 13 to 17 a teen,
 *   18 and over an adult;
 * - every grant on a dependant's record (the guardian's, a co-parent's) ends on their 18th
 *   birthday: an adult's record needs the person's own sign-in, and cannot be renewed by a proxy;
 * - a grant on an adult's own record ends FAMILY_PROXY_MONTHS after it was given or last renewed.
 */

/** The time the rules run at: the system clock, or a test's. */
export interface Clock {
  now(): Date;
}
export const SYSTEM_CLOCK: Clock = { now: () => new Date() };
/** The injection token of the clock the family service reads (tests provide their own). */
export const FAMILY_CLOCK = Symbol('FAMILY_CLOCK');

export const CHILD_UNTIL = 13;
export const ADULT_AT = 18;

/** A YYYY-MM-DD date that exists (no 2025-02-30), or null. */
export function parseDate(value: string): { year: number; month: number; day: number } | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return { year, month, day };
}

/**
 * The start (00:00 UTC) of the day the person born on `dateOfBirth` turns `years`. Born on 29
 * February: 1 March in years without one.
 */
export function birthday(dateOfBirth: string, years: number): Date {
  const born = parseDate(dateOfBirth);
  if (!born) throw new Error('not a date');
  const date = new Date(Date.UTC(born.year + years, born.month - 1, born.day));
  return date;
}

/** Whole years completed at `at`. */
export function ageAt(dateOfBirth: string, at: Date): number {
  const born = parseDate(dateOfBirth);
  if (!born) throw new Error('not a date');
  let age = at.getUTCFullYear() - born.year;
  if (birthday(dateOfBirth, age).getTime() > at.getTime()) age -= 1;
  return age;
}

export function ageBand(dateOfBirth: string | null, at: Date): AgeBand | null {
  if (!dateOfBirth || !parseDate(dateOfBirth)) return null;
  const age = ageAt(dateOfBirth, at);
  return age < CHILD_UNTIL ? 'child' : age < ADULT_AT ? 'teen' : 'adult';
}

/** When access by proxy to a dependant's record ends: their 18th birthday. */
export function dependantAccessEnds(dateOfBirth: string): Date {
  return birthday(dateOfBirth, ADULT_AT);
}

/** `from` plus whole calendar months (the 31st into a shorter month: its last day). */
export function addMonths(from: Date, months: number): Date {
  const target = new Date(from.getTime());
  const day = target.getUTCDate();
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, last));
  return target;
}

/**
 * When a grant given (or renewed) at `now` ends: on a dependant's record, their 18th birthday;
 * on an adult's own record, `proxyMonths` later.
 */
export function grantExpiry(record: { dependant: boolean; dateOfBirth: string | null }, now: Date, proxyMonths: number): Date {
  if (record.dependant && record.dateOfBirth) return dependantAccessEnds(record.dateOfBirth);
  return addMonths(now, proxyMonths);
}

export type GrantState = 'active' | 'expired' | 'revoked';

export function grantState(grant: { revokedAt: Date | null; expiresAt: Date | null }, now: Date): GrantState {
  if (grant.revokedAt) return 'revoked';
  if (grant.expiresAt && grant.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}

/** Why a dependant's date of birth is refused, or null: a real date, not in the future, under 18 today. */
export function dependantBirthProblem(dateOfBirth: string, now: Date): 'invalid' | 'future' | 'adult' | null {
  if (!parseDate(dateOfBirth)) return 'invalid';
  if (birthday(dateOfBirth, 0).getTime() > now.getTime()) return 'future';
  if (ageAt(dateOfBirth, now) >= ADULT_AT) return 'adult';
  return null;
}

/**
 * Whether a renewal is possible, and the new end: a grant on a dependant's record cannot outlive
 * their 18th birthday (after it, only the person can give access again); a grant on an adult's
 * record runs `proxyMonths` from now.
 */
export function renewal(record: { dependant: boolean; dateOfBirth: string | null }, now: Date, proxyMonths: number): { ok: true; expiresAt: Date } | { ok: false } {
  const expiresAt = grantExpiry(record, now, proxyMonths);
  if (expiresAt.getTime() <= now.getTime()) return { ok: false };
  return { ok: true, expiresAt };
}

/** Whether the expiry reminder is due: an adult-to-adult grant, active, ending within `days`, not yet reminded. */
export function reminderDue(grant: { revokedAt: Date | null; expiresAt: Date | null; reminderSentAt: Date | null }, now: Date, days: number): boolean {
  if (grantState(grant, now) !== 'active' || !grant.expiresAt || grant.reminderSentAt) return false;
  return grant.expiresAt.getTime() - now.getTime() <= days * 86_400_000;
}

export type ClaimVerdict = 'ok' | 'too-young' | 'teen-off' | 'too-late';

/**
 * Whether a dependant born on `dateOfBirth` may be sent the link to claim their record with their
 * own sign-in at `now`: from 13 when teens may sign in (FAMILY_TEEN_SIGN_IN), otherwise from 18;
 * after the 18th birthday for `graceDays` more (the former guardian's access has ended, but the
 * person still needs a way in to the record kept for them).
 */
export function claimAllowed(dateOfBirth: string, now: Date, settings: { teenSignIn: boolean; graceDays: number }): ClaimVerdict {
  const age = ageAt(dateOfBirth, now);
  if (age < CHILD_UNTIL) return 'too-young';
  if (age < ADULT_AT) return settings.teenSignIn ? 'ok' : 'teen-off';
  const graceEnds = birthday(dateOfBirth, ADULT_AT).getTime() + settings.graceDays * 86_400_000;
  return now.getTime() < graceEnds ? 'ok' : 'too-late';
}

/**
 * Whether a claimed teen is to be asked about their proxies (FAMILY_TEEN_ASSENT_REQUIRED): not
 * answered yet, under 18, and someone else still has live access.
 */
export function assentPending(record: { claimed: boolean; assent: 'given' | 'declined' | null; dateOfBirth: string | null }, liveProxies: number, now: Date, required: boolean): boolean {
  if (!required || !record.claimed || record.assent || !record.dateOfBirth) return false;
  return ageAt(record.dateOfBirth, now) < ADULT_AT && liveProxies > 0;
}

/** Whether the guardian's "turns 18 soon" e-mail is due: a live guardian grant ending (the 18th birthday) within `days`, not yet sent. */
export function comingOfAgeReminderDue(grant: { role: string; revokedAt: Date | null; expiresAt: Date | null; reminderSentAt: Date | null }, now: Date, days: number): boolean {
  return grant.role === 'guardian' && reminderDue(grant, now, days);
}
