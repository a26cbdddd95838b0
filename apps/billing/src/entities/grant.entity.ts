import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { PlanId } from '@medfolio/contracts';

/** A plan given without payment: one month of Basic earned by referrals (Free users). */
@Entity('grants')
export class Grant {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'user_id', type: 'text' })
  userId!: string;

  @Column({ type: 'text' })
  plan!: PlanId;

  @Column({ name: 'starts_at', type: 'timestamptz' })
  startsAt!: Date;

  @Column({ name: 'ends_at', type: 'timestamptz' })
  endsAt!: Date;

  @Column({ type: 'text' })
  reason!: string;
}
