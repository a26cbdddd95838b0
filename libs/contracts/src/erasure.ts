import { IsISO8601 } from 'class-validator';
import type { CallerIdentity } from './caller';
import { PATIENT_ROLE } from './providers';
import { NonEmptyString } from './rules';

/**
 * Erasing a person's record across services (docs/guide/family.md, "Removing a family member").
 * identity decides it (a guardian removes a dependant: the record is no longer listed and every
 * grant and invitation on it ends at once) and publishes `RecordErasedEvent` through its outbox on
 * the IDENTITY stream. Every service that keeps data keyed by that patient id deletes it on its own
 * durable consumer, idempotently, and records the audit event `record.erased` for its part. audit
 * keeps its records (identifiers only; legal retention), but nobody can read the history of an
 * erased record: the record is unknown to identity's access check from the moment it is erased.
 */
export const ERASURE_SUBJECTS = {
  /** Event (IDENTITY stream, inside its `identity.user.*.v1` subjects): RecordErasedEvent. */
  erased: 'identity.user.record-erased.v1',
} as const;

/** The audit action every service records for its part of an erasure. */
export const RECORD_ERASED_ACTION = 'record.erased';

/** Event: a person's record was erased; every service deletes what it keeps under `patient_id`. */
export class RecordErasedEvent {
  @NonEmptyString(128)
  patient_id!: string;

  /** ISO time identity erased the record. */
  @IsISO8601()
  erased_at!: string;

  /** Who erased it (the guardian), the actor of every service's audit record. */
  @NonEmptyString(128)
  erased_by!: string;
}

/**
 * The caller of a service's `record.erased` audit record: the erased record's patient, acted on by
 * the guardian who erased it (so audit names the guardian as the actor, policy proxy:guardian).
 */
export function erasureCaller(event: RecordErasedEvent, correlationId: string): CallerIdentity {
  return { userId: event.patient_id, roles: [PATIENT_ROLE], correlationId, actor: { userId: event.erased_by, role: 'guardian' } };
}
