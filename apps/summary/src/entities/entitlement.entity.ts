import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { PlanId } from '@medfolio/contracts';

/**
 * The summary service's projection of billing's entitlements (as the documents service keeps one):
 * each user's current plan, fed by billing.entitlement.changed.v1; it gates health trends. A user
 * without a row is on the free plan.
 */
@Entity('entitlements')
export class SummaryEntitlement {
  @PrimaryColumn({ name: 'owner_id', type: 'text' })
  ownerId!: string;

  @Column({ type: 'text' })
  plan!: PlanId;

  /** When the plan took effect, from the event: an older event never overwrites a newer one. */
  @Column({ name: 'changed_at', type: 'timestamptz' })
  changedAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
