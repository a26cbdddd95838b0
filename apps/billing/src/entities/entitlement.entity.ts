import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { PlanId } from '@medfolio/contracts';

/** The plan last published for a user (billing.entitlement.changed.v1). */
@Entity('entitlements')
export class Entitlement {
  @PrimaryColumn({ name: 'user_id', type: 'text' })
  userId!: string;

  @Column({ type: 'text' })
  plan!: PlanId;

  @Column({ name: 'changed_at', type: 'timestamptz' })
  changedAt!: Date;
}
