import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { PlanId } from '@medfolio/contracts';
import { OutboxRelay } from '@medfolio/messaging/outbox';
import { BillingRepository } from '../repositories/billing.repository';
import { entitledPlan } from './entitlements';

/** Decides a user's plan from their subscriptions and grants, and publishes a change (outbox). */
@Injectable()
export class EntitlementsService {
  constructor(
    @Inject(BillingRepository) private readonly billing: BillingRepository,
    @Inject(OutboxRelay) private readonly relay: OutboxRelay,
  ) {}

  /** Inside the caller's transaction: the plan now, stored and queued when it changed. */
  async recompute(manager: EntityManager, userId: string, at = new Date()): Promise<{ plan: PlanId; changed: boolean }> {
    const subscriptions = await this.billing.subscriptionsOf(userId, manager);
    const grants = await this.billing.activeGrants(userId, at, manager);
    const plan = entitledPlan(subscriptions, grants, at);
    const changed = await this.billing.setEntitlement(manager, userId, plan, at);
    return { plan, changed };
  }

  /** After the commit: publish at once rather than on the relay's next poll. */
  published(): void {
    this.relay.kick();
  }

  /** Its own transaction (the sweep). */
  async recheck(userId: string, at = new Date()): Promise<boolean> {
    const { changed } = await this.billing.transaction((manager) => this.recompute(manager, userId, at));
    if (changed) this.published();
    return changed;
  }
}
