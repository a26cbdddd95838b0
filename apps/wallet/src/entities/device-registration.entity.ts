import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A device that added a pass and asked for its updates (PassKit web service: register). */
@Entity('registrations')
export class DeviceRegistration {
  @PrimaryColumn({ name: 'device_library_identifier', type: 'text' })
  deviceLibraryIdentifier!: string;

  @PrimaryColumn({ name: 'serial_number', type: 'uuid' })
  serialNumber!: string;

  /** The APNs device token the device gave for this pass type. */
  @Column({ name: 'push_token', type: 'text' })
  pushToken!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
