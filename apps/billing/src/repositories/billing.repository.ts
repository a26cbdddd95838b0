import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { BILLING_SUBJECTS, type EntitlementChangedEvent, type PlanId } from '@medfolio/contracts';
import { Outbox } from '@medfolio/messaging/outbox';
import { schemaOf } from '@medfolio/persistence';
import { Customer, Entitlement, Grant, Subscription } from '../entities';

/** Subscription states that give their plan. past_due gives it until its grace period ends. */
export const ENTITLING_STATES = ['active', 'trialing'] as const;

/** Billing's own tables for customers, subscriptions, grants and entitlements (the only I/O to them). */
@Injectable()
export class BillingRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  customerOf(userId: string, manager?: EntityManager): Promise<Customer | null> {
    return this.m(manager).findOneBy(Customer, { userId });
  }

  userOfCustomer(stripeCustomerId: string, manager?: EntityManager): Promise<Customer | null> {
    return this.m(manager).findOneBy(Customer, { stripeCustomerId });
  }

  /** Keeps the first customer recorded for a user (two racing checkouts get the same one back). */
  async saveCustomer(userId: string, stripeCustomerId: string): Promise<Customer> {
    await this.dataSource.createQueryBuilder().insert().into(Customer).values({ userId, stripeCustomerId }).orIgnore().execute();
    return (await this.customerOf(userId))!;
  }

  subscription(id: string, manager?: EntityManager): Promise<Subscription | null> {
    return this.m(manager).findOneBy(Subscription, { id });
  }

  /** Locks the row for the rest of the transaction (webhook deliveries of one subscription take turns). */
  lockSubscription(manager: EntityManager, id: string): Promise<Subscription | null> {
    return manager.getRepository(Subscription).createQueryBuilder('s').setLock('pessimistic_write').where('s.id = :id', { id }).getOne();
  }

  /** The user's subscriptions, newest first. */
  subscriptionsOf(userId: string, manager?: EntityManager): Promise<Subscription[]> {
    return this.m(manager).find(Subscription, { where: { userId }, order: { createdAt: 'DESC' } });
  }

  async saveSubscription(row: Partial<Subscription> & { id: string }, manager?: EntityManager): Promise<void> {
    await this.m(manager).save(Subscription, { ...row, updatedAt: new Date() });
  }

  /** Grants in force at `at`. */
  async activeGrants(userId: string, at: Date, manager?: EntityManager): Promise<Grant[]> {
    return this.m(manager)
      .getRepository(Grant)
      .createQueryBuilder('g')
      .where('g.user_id = :userId AND g.starts_at <= :at AND g.ends_at > :at', { userId, at })
      .orderBy('g.ends_at', 'DESC')
      .getMany();
  }

  /** The end of the user's latest grant (a new month starts there, so months add up). */
  async latestGrantEnd(userId: string, manager: EntityManager): Promise<Date | null> {
    const row = await manager.getRepository(Grant).createQueryBuilder('g').where('g.user_id = :userId', { userId }).orderBy('g.ends_at', 'DESC').getOne();
    return row?.endsAt ?? null;
  }

  async addGrant(manager: EntityManager, grant: Grant): Promise<void> {
    await manager.insert(Grant, grant);
  }

  entitlement(userId: string, manager?: EntityManager): Promise<Entitlement | null> {
    return this.m(manager).findOneBy(Entitlement, { userId });
  }

  /**
   * Stores the user's plan and, when it changed, queues billing.entitlement.changed.v1 in the same
   * transaction (the outbox). Returns true when an event was queued.
   */
  async setEntitlement(manager: EntityManager, userId: string, plan: PlanId, at: Date): Promise<boolean> {
    const current = await manager.getRepository(Entitlement).createQueryBuilder('e').setLock('pessimistic_write').where('e.user_id = :userId', { userId }).getOne();
    if ((current?.plan ?? 'free') === plan) return false;
    // Strictly increasing per user, so consumers that keep the newest never drop a change.
    const changedAt = current && current.changedAt.getTime() >= at.getTime() ? new Date(current.changedAt.getTime() + 1) : at;
    await manager.save(Entitlement, { userId, plan, changedAt });
    const event: EntitlementChangedEvent = { user_id: userId, plan, changed_at: changedAt.toISOString() };
    await Outbox.add(manager, BILLING_SUBJECTS.entitlementChanged, { ...event });
    return true;
  }

  /** Users whose plan may have ended by `at`: past-due grace over, or a granted month over. */
  async usersToRecheck(at: Date): Promise<string[]> {
    const s = schemaOf(this.dataSource);
    const rows: { user_id: string }[] = await this.dataSource.query(
      `SELECT s.user_id FROM "${s}".subscriptions s WHERE s.status = 'past_due' AND s.grace_until <= $1
       UNION
       SELECT g.user_id FROM "${s}".grants g WHERE g.ends_at <= $1 AND g.ends_at > $1::timestamptz - interval '2 days'`,
      [at],
    );
    return rows.map((r) => r.user_id);
  }
}
