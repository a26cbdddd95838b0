import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Every user billing has heard of (identity.user.registered.v1): to tell a new address from a known one. */
@Entity('accounts')
export class Account {
  @PrimaryColumn({ name: 'user_id', type: 'text' })
  userId!: string;

  /** SHA-256 of the normalised e-mail: equality only, the address itself is not kept. */
  @Column({ name: 'email_hash', type: 'text' })
  emailHash!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
