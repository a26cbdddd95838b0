import { Type } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsOptional, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';

export const AUDIT_OUTCOMES = ['success', 'failure', 'denied'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/**
 * One audit record: who did what to which health data, with what result, from where.
 * Published by every service on the AUDIT stream (libs/audit) and stored hash-chained by apps/audit.
 * It never carries health data itself: only identifiers.
 */
export class AuditEventDto {
  /** Unique id of this record (also the message id, so a retried publish is stored once). */
  @IsUUID()
  id!: string;

  @IsISO8601()
  occurredAt!: string;

  /** Which service recorded it, e.g. 'documents'. */
  @IsString()
  @MaxLength(40)
  service!: string;

  /** The acting user's id, or 'anonymous', or 'system'. */
  @IsString()
  @MaxLength(100)
  actor!: string;

  /** What was done, e.g. 'document.download-link', 'history.read', 'login'. */
  @IsString()
  @MaxLength(100)
  action!: string;

  @IsString()
  @MaxLength(60)
  entityType!: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  entityId?: string;

  /** The patient whose data was touched (for the patient's own history page). */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  patientId?: string;

  @IsIn(AUDIT_OUTCOMES)
  outcome!: AuditOutcome;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  ip?: string;

  @IsOptional()
  @IsString()
  @MaxLength(500)
  userAgent?: string;

  @IsString()
  @MaxLength(100)
  correlationId!: string;

  /** The policy that allowed access, e.g. 'owner' or 'share-link:<id>'. */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  policy?: string;
}

export class HistoryQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  page?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  page_size?: number;
}

export interface HistoryEntry {
  id: string;
  /** ISO time. */
  when: string;
  /** 'you', 'Ana (caregiver)', a provider's name, another user's id, 'anonymous (shared link)', 'system'. */
  who: string;
  /**
   * Set when someone acted on the record by proxy (a caregiver or guardian, not the record's
   * person): their first name and how they relate to the record, for "Ana (caregiver) uploaded
   * lab-results.pdf for Leo". Null otherwise.
   */
  actor_name: string | null;
  actor_relation: 'guardian' | 'caregiver' | 'former caregiver' | null;
  action: string;
  what: string;
  outcome: AuditOutcome;
  from: string | null;
  user_agent: string | null;
  /** What was touched: 'document', 'session', 'user', ... */
  entity_type: string;
  /** Its id (for a document, the web app shows its name from the patient's own list). */
  entity_id: string | null;
  /** Why a failure or refusal happened, in a sentence; null on success. */
  reason: string | null;
}

export interface HistoryPage {
  results: HistoryEntry[];
  page: number;
  page_size: number;
  total: number;
}
