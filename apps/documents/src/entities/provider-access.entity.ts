import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { AccessRequestState, ProviderSummary } from '@medfolio/contracts';

/**
 * What a request and a grant both hold: which provider, which patient, and the provider's registry
 * facts and the patient's first name as they were when it was made. Not an entity of its own: each
 * subclass's table has these columns.
 */
abstract class ProviderAccess {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'patient_id', type: 'text' })
  patientId!: string;

  @Column({ name: 'provider_id', type: 'text' })
  providerId!: string;

  @Column({ type: 'jsonb' })
  provider!: ProviderSummary;

  @Column({ name: 'patient_first_name', type: 'text', default: '' })
  patientFirstName!: string;
}

/**
 * A verified provider's request to see a patient's documents, made from the patient's
 * shared summary page. The provider's registry facts are copied in when it is made (what the patient
 * is shown, and what their access history names).
 */
@Entity('access_requests')
@Index('access_requests_patient_idx', ['patientId', 'state'])
export class AccessRequest extends ProviderAccess {
  /** The share link it came through (its id, never its secret) and label. */
  @Column({ name: 'link_id', type: 'text' })
  linkId!: string;

  @Column({ name: 'link_label', type: 'text', default: '' })
  linkLabel!: string;

  @Column({ type: 'text', default: 'pending' })
  state!: AccessRequestState;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'decided_at', type: 'timestamptz', nullable: true })
  decidedAt!: Date | null;
}

/** A provider's read-only access to a patient's documents, until `expiresAt` or revocation. */
@Entity('provider_grants')
@Index('provider_grants_provider_idx', ['providerId', 'patientId'])
@Index('provider_grants_patient_idx', ['patientId'])
export class ProviderGrant extends ProviderAccess {
  /** 'approved': the patient approved a request; 'share-link': a link made with providers_may_see_documents. */
  @Column({ type: 'text' })
  source!: 'approved' | 'share-link';

  @Column({ name: 'request_id', type: 'uuid', nullable: true })
  requestId!: string | null;

  @Column({ name: 'link_id', type: 'text' })
  linkId!: string;

  @Column({ name: 'granted_at', type: 'timestamptz', default: () => 'now()' })
  grantedAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;
}
