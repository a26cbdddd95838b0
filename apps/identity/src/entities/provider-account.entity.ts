import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * An account at a sign-in provider linked to a user: the ID token's issuer and subject (`iss`,
 * `sub`), which the provider keeps for the account whatever happens to its e-mail address. Signing
 * in looks this up first; the e-mail only links a provider account not seen before. One account per
 * configured provider and user.
 */
@Entity('provider_accounts')
export class ProviderAccount {
  @PrimaryColumn({ type: 'text' })
  issuer!: string;

  @PrimaryColumn({ type: 'text' })
  subject!: string;

  /** The configured provider's name (OIDC_PROVIDERS `name`, e.g. 'microsoft'). */
  @Column({ type: 'text' })
  provider!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
