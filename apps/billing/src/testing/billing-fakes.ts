// In-memory stand-ins for billing's repositories, for unit tests of its services.
import type { EntityManager } from 'typeorm';
import type { ProcessedMessages } from '@medfolio/messaging/outbox';
import type { PlanId } from '@medfolio/contracts';
import type { Grant, Subscription } from '../entities';

const NO_MANAGER = {} as EntityManager;

/** Customers, subscriptions, grants and entitlements in memory (the parts of BillingRepository the services use). */
export class FakeBilling {
  readonly customers = new Map<string, string>(); // Stripe customer id → user id
  readonly subscriptions = new Map<string, Subscription>();
  readonly grants: Grant[] = [];
  readonly entitlements = new Map<string, PlanId>();
  readonly saves: Array<Partial<Subscription> & { id: string }> = [];

  async userOfCustomer(stripeCustomerId: string): Promise<{ userId: string; stripeCustomerId: string } | null> {
    const userId = this.customers.get(stripeCustomerId);
    return userId ? { userId, stripeCustomerId } : null;
  }

  async subscription(id: string): Promise<Subscription | null> {
    const found = this.subscriptions.get(id);
    return found ? { ...found } : null;
  }

  async lockSubscription(_manager: EntityManager, id: string): Promise<Subscription | null> {
    return this.subscription(id);
  }

  async subscriptionsOf(userId: string): Promise<Subscription[]> {
    return [...this.subscriptions.values()].filter((s) => s.userId === userId).map((s) => ({ ...s }));
  }

  async saveSubscription(row: Partial<Subscription> & { id: string }): Promise<void> {
    this.saves.push(row);
    const now = new Date();
    const before = this.subscriptions.get(row.id);
    this.subscriptions.set(row.id, { ...(before ?? { createdAt: now }), ...row, updatedAt: now } as Subscription);
  }

  async activeGrants(userId: string, at: Date): Promise<Grant[]> {
    return this.grants.filter((g) => g.userId === userId && g.startsAt <= at && g.endsAt > at);
  }

  async latestGrantEnd(userId: string): Promise<Date | null> {
    const ends = this.grants.filter((g) => g.userId === userId).map((g) => g.endsAt.getTime());
    return ends.length ? new Date(Math.max(...ends)) : null;
  }

  async addGrant(_manager: EntityManager, grant: Grant): Promise<void> {
    this.grants.push(grant);
  }

  async setEntitlement(_manager: EntityManager, userId: string, plan: PlanId): Promise<boolean> {
    const changed = (this.entitlements.get(userId) ?? 'free') !== plan;
    this.entitlements.set(userId, plan);
    return changed;
  }

  async transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return work(NO_MANAGER);
  }
}

/**
 * The service kit's ProcessedMessages in memory: the ids as a set, the work all or nothing (an id is
 * kept only when the work did not throw), as the real one.
 */
export class FakeProcessedMessages implements Pick<ProcessedMessages, 'once'> {
  readonly ids = new Set<string>();

  async once(consumer: string, messageId: string, work: (manager: EntityManager) => Promise<unknown>): Promise<boolean> {
    const id = `${consumer}:${messageId}`;
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    try {
      await work(NO_MANAGER);
    } catch (error) {
      this.ids.delete(id);
      throw error;
    }
    return true;
  }
}
