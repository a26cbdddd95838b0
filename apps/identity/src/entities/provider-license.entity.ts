import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A verified licence (issue 18): one per account, and a licence number on at most one account
 * (unique). Its existence is the provider role; the columns are what the registry said.
 */
@Entity('provider_licenses')
export class ProviderLicense {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text' })
  registry!: string;

  @Column({ name: 'license_number', type: 'text', unique: true })
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

  @Column({ name: 'verified_at', type: 'timestamptz', default: () => 'now()' })
  verifiedAt!: Date;
}
