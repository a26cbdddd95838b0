import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One free month earned (every 3 counted referrals): a Stripe balance credit or a month of Basic. */
@Entity('referral_rewards')
export class ReferralReward {
  @PrimaryColumn({ name: 'user_id', type: 'text' })
  userId!: string;

  /** 1 for the first month earned, 2 for the second, ... */
  @PrimaryColumn({ type: 'int' })
  number!: number;

  @Column({ type: 'text' })
  kind!: 'credit' | 'grant';

  @Column({ name: 'amount_cents', type: 'int', default: 0 })
  amountCents!: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
