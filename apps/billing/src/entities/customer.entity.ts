import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One Stripe customer per user. */
@Entity('customers')
export class Customer {
  @PrimaryColumn({ name: 'user_id', type: 'text' })
  userId!: string;

  @Column({ name: 'stripe_customer_id', type: 'text', unique: true })
  stripeCustomerId!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
