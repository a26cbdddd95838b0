import type { PlanId } from '@medfolio/contracts';
import type { Grant, Subscription } from '../entities';
import { PLAN_RANK } from './plans';

/** Does this subscription give its plan at `at`? active/trialing yes; past_due only within its grace period. */
export function subscriptionEntitles(subscription: Pick<Subscription, 'status' | 'graceUntil'>, at: Date): boolean {
  if (subscription.status === 'active' || subscription.status === 'trialing') return true;
  if (subscription.status === 'past_due') return subscription.graceUntil !== null && subscription.graceUntil.getTime() > at.getTime();
  return false; // incomplete, incomplete_expired, unpaid, canceled, paused
}

/** The plan a user is entitled to: the largest of their entitling subscriptions and grants in force; else free. */
export function entitledPlan(subscriptions: readonly Pick<Subscription, 'status' | 'graceUntil' | 'plan'>[], grants: readonly Pick<Grant, 'plan' | 'startsAt' | 'endsAt'>[], at: Date): PlanId {
  let plan: PlanId = 'free';
  const consider = (candidate: PlanId) => {
    if (PLAN_RANK[candidate] > PLAN_RANK[plan]) plan = candidate;
  };
  for (const s of subscriptions) if (subscriptionEntitles(s, at)) consider(s.plan);
  for (const g of grants) if (g.startsAt.getTime() <= at.getTime() && g.endsAt.getTime() > at.getTime()) consider(g.plan);
  return plan;
}

/**
 * Order of Stripe statuses for events created in the same second: the later state in a
 * subscription's life wins a tie (an 'incomplete' never undoes an 'active' of the same second).
 */
const STATUS_ORDER: Record<string, number> = { incomplete: 0, trialing: 1, active: 2, past_due: 3, unpaid: 4, paused: 4, canceled: 5, incomplete_expired: 5 };

/** Should an object from an event created at `eventCreated` replace the stored state? */
export function isNewer(stored: Pick<Subscription, 'stateAt' | 'status'> | null, eventCreated: number, status: string): boolean {
  if (!stored || stored.stateAt === 0) return true;
  if (eventCreated !== stored.stateAt) return eventCreated > stored.stateAt;
  return (STATUS_ORDER[status] ?? 0) >= (STATUS_ORDER[stored.status] ?? 0);
}
