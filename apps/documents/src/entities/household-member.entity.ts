import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A dependant (a person without a sign-in, added by an account holder) and the holder whose plan
 * covers their record: the projection of identity.user.household-changed.v1. A patient without a
 * row is their own plan's holder.
 */
@Entity('household_members')
export class HouseholdMember {
  @PrimaryColumn({ name: 'patient_id', type: 'text' })
  patientId!: string;

  @Column({ name: 'holder_id', type: 'text' })
  holderId!: string;

  /** For messages ("Leo's record is full"). */
  @Column({ name: 'first_name', type: 'text' })
  firstName!: string;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
