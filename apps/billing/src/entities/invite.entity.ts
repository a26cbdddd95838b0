import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An invitation e-mail sent (one per referrer and address). */
@Entity('invites')
export class Invite {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'referrer_user_id', type: 'text' })
  referrerUserId!: string;

  @Column({ name: 'email_hash', type: 'text' })
  emailHash!: string;

  @Column({ name: 'sent_at', type: 'timestamptz' })
  sentAt!: Date;
}
