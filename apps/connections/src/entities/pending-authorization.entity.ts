import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A sign-in started at an EHR and not yet finished: the state (kept as its SHA-256, bound to the user
 * who started it), the PKCE verifier (sealed), and what discovery said. Used once, then deleted.
 */
@Entity('pending_authorizations')
export class PendingAuthorization {
  @PrimaryColumn({ name: 'state_hash', type: 'text' })
  stateHash!: string;

  @Column({ name: 'owner_id', type: 'text' })
  ownerId!: string;

  @Column({ name: 'endpoint_id', type: 'text' })
  endpointId!: string;

  @Column({ name: 'verifier_sealed', type: 'bytea' })
  verifierSealed!: Buffer;

  @Column({ name: 'redirect_uri', type: 'text' })
  redirectUri!: string;

  @Column({ name: 'client_id', type: 'text' })
  clientId!: string;

  @Column({ name: 'token_endpoint', type: 'text' })
  tokenEndpoint!: string;

  @Column({ name: 'revocation_endpoint', type: 'text', nullable: true })
  revocationEndpoint!: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}
