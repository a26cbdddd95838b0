import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A link e-mailed by a guardian to a dependant (13 or over) to claim their record with their own
 * sign-in. The token is kept only as its SHA-256; a newer link to the same record replaces it.
 */
@Entity('family_claims')
export class FamilyClaim {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  /** The dependant's id: the account the claim creates takes it as its user id. */
  @Column({ name: 'patient_id', type: 'uuid' })
  patientId!: string;

  /** The invited address (lower-cased): the new account's. */
  @Column({ type: 'text' })
  email!: string;

  @Column({ name: 'token_hash', type: 'text' })
  tokenHash!: string;

  @Column({ name: 'invited_by', type: 'uuid' })
  invitedBy!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'claimed_at', type: 'timestamptz', nullable: true })
  claimedAt!: Date | null;

  @Column({ name: 'replaced_at', type: 'timestamptz', nullable: true })
  replacedAt!: Date | null;
}
