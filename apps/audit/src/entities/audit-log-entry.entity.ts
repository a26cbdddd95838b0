import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One row of the append-only, hash-chained audit log. `position` is gap-free (assigned under a lock,
 * not by a sequence), `hash` = SHA-256(previous hash + canonical JSON of this entry); see
 * services/hash-chain.ts. The table refuses UPDATE, DELETE and TRUNCATE (migration triggers).
 */
@Entity('audit_log')
@Index('audit_log_patient_idx', ['patientId', 'position'])
export class AuditLogEntry {
  @PrimaryColumn({ type: 'bigint', transformer: { to: (v: number) => v, from: (v: string) => Number(v) } })
  position!: number;

  @Column({ name: 'event_id', type: 'uuid', unique: true })
  eventId!: string;

  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt!: Date;

  @Column({ name: 'recorded_at', type: 'timestamptz' })
  recordedAt!: Date;

  @Column({ type: 'text' })
  service!: string;

  @Column({ type: 'text' })
  actor!: string;

  @Column({ type: 'text' })
  action!: string;

  @Column({ name: 'entity_type', type: 'text' })
  entityType!: string;

  @Column({ name: 'entity_id', type: 'text', nullable: true })
  entityId!: string | null;

  @Column({ name: 'patient_id', type: 'text', nullable: true })
  patientId!: string | null;

  @Column({ type: 'text' })
  outcome!: string;

  @Column({ type: 'text', nullable: true })
  ip!: string | null;

  @Column({ name: 'user_agent', type: 'text', nullable: true })
  userAgent!: string | null;

  @Column({ name: 'correlation_id', type: 'text' })
  correlationId!: string;

  @Column({ type: 'text', nullable: true })
  policy!: string | null;

  @Column({ name: 'prev_hash', type: 'char', length: 64 })
  prevHash!: string;

  @Column({ type: 'char', length: 64 })
  hash!: string;
}
