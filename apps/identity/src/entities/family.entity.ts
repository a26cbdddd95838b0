import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { FamilyRole } from '@medfolio/contracts';

/**
 * A person without a sign-in of their own (a child), added by an account holder. Their id is the
 * patient id every service keys their record by, as a user id is; it never signs in.
 */
@Entity('dependants')
export class Dependant {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  /** The account holder who added them (their guardian; their plan covers the record). */
  @Column({ name: 'holder_id', type: 'uuid' })
  holderId!: string;

  @Column({ name: 'first_name', type: 'text' })
  firstName!: string;

  @Column({ name: 'last_name', type: 'text' })
  lastName!: string;

  /** Cleared (NULL) when the record is erased; erased rows are never read as people. */
  @Column({ name: 'date_of_birth', type: 'date', nullable: true })
  dateOfBirth!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  /** Set when the guardian removed them: the record is erased (a tombstone: no name, no date of birth). */
  @Column({ name: 'erased_at', type: 'timestamptz', nullable: true })
  erasedAt!: Date | null;

  /**
   * When they claimed their record with their own sign-in: from then on a `users` row with this
   * same id exists (the account), and this row keeps who their guardian was and their answer.
   */
  @Column({ name: 'claimed_at', type: 'timestamptz', nullable: true })
  claimedAt?: Date | null;

  /** Their answer, once claimed (FAMILY_TEEN_ASSENT_REQUIRED): proxies keep access ('given') or not ('declined'). */
  @Column({ type: 'text', nullable: true })
  assent?: 'given' | 'declined' | null;

  @Column({ name: 'assent_at', type: 'timestamptz', nullable: true })
  assentAt?: Date | null;
}

/**
 * Access by one signed-in person (the grantee) to another person's record (patient_id: a user's or
 * a dependant's id), with a role. 'guardian' is the holder of a dependant; 'view' and 'manage' are
 * caregivers, made by accepting an invitation. At most one unrevoked grant per record and grantee.
 */
@Entity('family_grants')
export class FamilyGrant {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'patient_id', type: 'uuid' })
  patientId!: string;

  @Column({ name: 'grantee_user_id', type: 'uuid' })
  granteeId!: string;

  @Column({ type: 'text' })
  role!: FamilyRole;

  /** Who gave it (the record's owner or guardian, through an invitation). */
  @Column({ name: 'created_by', type: 'uuid' })
  createdBy!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  /** When access ends (18th birthday, or FAMILY_PROXY_MONTHS for an adult's record); null: never. */
  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  /** The last request made with it (updated at most once a minute). */
  @Column({ name: 'last_active_at', type: 'timestamptz', nullable: true })
  lastActiveAt!: Date | null;

  /** When the expiry reminder went (cleared by a renewal). */
  @Column({ name: 'reminder_sent_at', type: 'timestamptz', nullable: true })
  reminderSentAt!: Date | null;
}

/** An e-mailed invitation to a record as a caregiver. The link's token is kept only as its SHA-256. */
@Entity('family_invites')
export class FamilyInvitation {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'patient_id', type: 'uuid' })
  patientId!: string;

  /** As typed (lower-cased, trimmed). */
  @Column({ type: 'text' })
  email!: string;

  /** view or manage (a caregiver), or guardian (a co-parent, on a dependant's record). */
  @Column({ type: 'text' })
  role!: FamilyRole;

  @Column({ name: 'token_hash', type: 'text' })
  tokenHash!: string;

  @Column({ name: 'invited_by', type: 'uuid' })
  invitedBy!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'accepted_at', type: 'timestamptz', nullable: true })
  acceptedAt!: Date | null;

  @Column({ name: 'accepted_by', type: 'uuid', nullable: true })
  acceptedBy!: string | null;

  @Column({ name: 'withdrawn_at', type: 'timestamptz', nullable: true })
  withdrawnAt!: Date | null;
}
