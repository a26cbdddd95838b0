import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A message sent through the contact form, kept (encrypted: it names a person and their address)
 * besides the e-mail that carries a copy to support.
 */
@Entity('contact_messages')
export class ContactMessage {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  /** { firstname, lastname, email, message }, sealed with the row id as context. */
  @Column({ type: 'bytea' })
  sealed!: Buffer;

  @Column({ name: 'email_message_id', type: 'uuid' })
  emailMessageId!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  /** Sent from a plan with priority support (Plus, Family): support answers it first. */
  @Column({ type: 'boolean', default: false })
  priority!: boolean;

  /** The signed-in account that sent it; null when sent signed out. */
  @Column({ name: 'account_id', type: 'text', nullable: true })
  accountId!: string | null;
}
