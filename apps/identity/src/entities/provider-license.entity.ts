import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A licence claim: one per account, and a licence number on at most one account whose
 * claim is not rejected (a partial unique index). A claim that is not rejected is the provider role;
 * the columns are what the registry said. `review`: 'pending' = self-attested
 * (registry name match only), 'verified' = an operator confirmed it, 'rejected' = no role.
 */
@Entity('provider_licenses')
export class ProviderLicense {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text' })
  registry!: string;

  @Column({ name: 'license_number', type: 'text' })
  licenseNumber!: string;

  @Column({ name: 'first_name', type: 'text' })
  firstName!: string;

  @Column({ name: 'last_name', type: 'text' })
  lastName!: string;

  @Column({ type: 'text', default: '' })
  credential!: string;

  @Column({ type: 'text', default: '' })
  specialty!: string;

  @Column({ type: 'text', default: '' })
  state!: string;

  /** When the registry matched the number and the name (the claim was made). */
  @Column({ name: 'verified_at', type: 'timestamptz', default: () => 'now()' })
  verifiedAt!: Date;

  @Column({ type: 'text', default: 'pending' })
  review!: LicenseReview;

  @Column({ name: 'reviewed_at', type: 'timestamptz', nullable: true })
  reviewedAt!: Date | null;

  /** The operator who decided ('operator:<name>'). */
  @Column({ name: 'reviewed_by', type: 'text', nullable: true })
  reviewedBy!: string | null;

  @Column({ name: 'review_note', type: 'text', default: '' })
  reviewNote!: string;
}

export type LicenseReview = 'pending' | 'verified' | 'rejected';

/** Another account says a claimed number is theirs; an operator decides. */
@Entity('provider_license_disputes')
export class LicenseDispute {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'license_number', type: 'text' })
  licenseNumber!: string;

  /** The account that says the number is theirs. */
  @Column({ name: 'claimant_id', type: 'uuid' })
  claimantId!: string;

  /** The account holding the claim when the dispute was filed. */
  @Column({ name: 'holder_id', type: 'uuid' })
  holderId!: string;

  @Column({ type: 'text', default: 'open' })
  state!: 'open' | 'upheld' | 'dismissed';

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'decided_at', type: 'timestamptz', nullable: true })
  decidedAt!: Date | null;

  @Column({ name: 'decided_by', type: 'text', nullable: true })
  decidedBy!: string | null;

  @Column({ type: 'text', default: '' })
  note!: string;
}
