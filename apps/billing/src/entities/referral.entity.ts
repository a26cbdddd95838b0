import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One person who signed up with a code; `state` says whether it counts. */
@Entity('referrals')
export class Referral {
  @PrimaryColumn({ name: 'invitee_user_id', type: 'text' })
  inviteeUserId!: string;

  @Column({ name: 'referrer_user_id', type: 'text' })
  referrerUserId!: string;

  @Column({ name: 'invitee_email_hash', type: 'text' })
  inviteeEmailHash!: string;

  /** joined (signed up), counted (verified as a new account) or refused (with `reason`). */
  @Column({ type: 'text' })
  state!: 'joined' | 'counted' | 'refused';

  @Column({ type: 'text', nullable: true })
  reason!: string | null;

  @Column({ name: 'joined_at', type: 'timestamptz', default: () => 'now()' })
  joinedAt!: Date;

  @Column({ name: 'counted_at', type: 'timestamptz', nullable: true })
  countedAt!: Date | null;
}
