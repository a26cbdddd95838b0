import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Per patient: the latest and confirmed versions, and when a rebuild is due (the debounce). */
@Entity('patients')
export class SummaryPatient {
  @PrimaryColumn({ name: 'user_id', type: 'text' })
  userId!: string;

  /** Set on every document change to now + the debounce; cleared by the build that follows. */
  @Column({ name: 'rebuild_due_at', type: 'timestamptz', nullable: true })
  rebuildDueAt!: Date | null;

  @Column({ name: 'latest_version', type: 'int' })
  latestVersion!: number;

  @Column({ name: 'confirmed_version', type: 'int', nullable: true })
  confirmedVersion!: number | null;
}
