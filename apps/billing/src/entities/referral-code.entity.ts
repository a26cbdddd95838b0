import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('referral_codes')
export class ReferralCode {
  @PrimaryColumn({ name: 'user_id', type: 'text' })
  userId!: string;

  @Column({ type: 'text', unique: true })
  code!: string;
}
