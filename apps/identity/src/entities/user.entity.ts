import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { Gender } from '@medfolio/contracts';

@Entity('users')
export class User {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  /** As typed (shown back to the user). */
  @Column({ type: 'text' })
  email!: string;

  /** Lower-cased and trimmed: unique, so e-mail uniqueness is case-insensitive. */
  @Column({ name: 'email_normalized', type: 'text', unique: true })
  emailNormalized!: string;

  @Column({ name: 'first_name', type: 'text' })
  firstName!: string;

  @Column({ name: 'last_name', type: 'text', default: '' })
  lastName!: string;

  @Column({ type: 'text', default: '' })
  phone!: string;

  @Column({ name: 'date_of_birth', type: 'date', nullable: true })
  dateOfBirth!: string | null;

  /** argon2id; null for accounts that only ever signed in with Google. */
  @Column({ name: 'password_hash', type: 'text', nullable: true })
  passwordHash!: string | null;

  @Column({ name: 'email_verified', type: 'boolean', default: false })
  emailVerified!: boolean;

  @Column({ name: 'google_subject', type: 'text', nullable: true, unique: true })
  googleSubject!: string | null;

  @Column({ name: 'profile_picture_key', type: 'text', nullable: true })
  profilePictureKey!: string | null;

  @Column({ type: 'text', nullable: true })
  gender!: Gender | null;

  /** The referral code of the sign-up link (billing decides whether it counts). */
  @Column({ name: 'referral_code', type: 'text', nullable: true })
  referralCode!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
