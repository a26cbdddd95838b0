import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One failed attempt (login, code, reset) counted against a key ('account:<email>' or 'ip:<addr>').
 * Limits count the failures of the last hour, so they decay: nobody is locked out forever.
 */
@Entity('auth_failures')
@Index('auth_failures_key_idx', ['scope', 'subjectKey', 'occurredAt'])
export class AuthFailure {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'text' })
  scope!: string;

  @Column({ name: 'subject_key', type: 'text' })
  subjectKey!: string;

  @Column({ name: 'occurred_at', type: 'timestamptz', default: () => 'now()' })
  occurredAt!: Date;
}
