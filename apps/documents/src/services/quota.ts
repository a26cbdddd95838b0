import { DomainError, MEMBERSHIP_PATH, PLAN_IDS, PLAN_NAMES, type PlanId } from '@medfolio/contracts';
import type { DocumentsConfig } from '../config';

/** Documents each plan may keep; Infinity for unlimited. */
export type PlanLimits = Readonly<Record<PlanId, number>>;

/** The plans in the order a user would move up through them. */
const LADDER: readonly PlanId[] = PLAN_IDS;

export function planLimitsFrom(
  config: Pick<DocumentsConfig, 'quotaFree' | 'quotaBasic' | 'quotaStandard' | 'quotaPlus' | 'quotaFamily'>,
): PlanLimits {
  const parse = (value: string) => (value === 'unlimited' ? Infinity : Number(value));
  return {
    free: parse(config.quotaFree),
    basic: parse(config.quotaBasic),
    standard: parse(config.quotaStandard),
    plus: parse(config.quotaPlus),
    pro: parse(config.quotaFamily),
  };
}

/**
 * Throws QUOTA_EXCEEDED unless `stored + adding` documents fit the plan. The message says what the
 * plan allows, what the user has, and the first plan that would take them all (if any), with the
 * page where plans are chosen (the web app makes it a link).
 */
export function assertRoom(limits: PlanLimits, plan: PlanId, stored: number, adding: number, whose: string | null = null): void {
  const limit = limits[plan];
  const needed = stored + adding;
  if (needed <= limit) return;
  const plural = (n: number) => (n === 1 ? '1 document' : `${n} documents`);
  const have = stored === 0 ? 'you have none stored' : `you have ${plural(stored)} stored`;
  const better = LADDER.slice(LADDER.indexOf(plan) + 1).find((p) => limits[p] >= needed);
  const upgrade = better
    ? ` The ${PLAN_NAMES[better]} plan allows ${limits[better] === Infinity ? 'unlimited documents' : plural(limits[better])}: see ${MEMBERSHIP_PATH}.`
    : ' Delete some documents to make room.';
  const adding_ = adding === 1 ? 'this file' : `these ${adding} files`;
  throw new DomainError(
    'QUOTA_EXCEEDED',
    `${whose ? `${whose}'s record is full: your household's` : 'Your'} ${PLAN_NAMES[plan]} plan allows ${plural(limit)} and ${have}, so ${adding_} cannot be added.${upgrade}`,
  );
}
