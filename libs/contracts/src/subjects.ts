/**
 * Every NATS subject in the system, in one place.
 * Request/reply: `<service>.<entity>.<verb>`. Events: `<service>.<entity>.<past-verb>.v1`.
 */
export const SUBJECTS = {
  audit: {
    /** Request/reply: a patient's access history (GET /api/history/). */
    historyList: 'audit.history.list',
    /** Event: one audit record, published by every service onto the AUDIT stream. */
    recorded: 'audit.event.recorded.v1',
  },
  /** Request/reply readiness probe every service answers (`<service>.health.check`). */
  health: <S extends ServiceName>(service: S) => `${service}.health.check` as const,
} as const;

export const STREAMS = {
  /** Audit records from every service. Fail-closed: publishers wait for its ack. */
  AUDIT: { name: 'AUDIT', subjects: ['audit.event.>'] },
  /** Account events (registered, verified), published by identity's outbox. */
  // Only '.v1' event subjects: a wider pattern would also capture request/reply subjects
  // (identity.user.register carries a password) and JetStream would answer those requests.
  IDENTITY: { name: 'IDENTITY', subjects: ['identity.user.*.v1'] },
  /** Document events (uploaded, deleted), published by the documents service's outbox. */
  DOCUMENTS: { name: 'DOCUMENTS', subjects: ['documents.document.*.v1'] },
  /** Billing events (entitlement changed), published by billing's outbox; documents keeps a projection. */
  BILLING: { name: 'BILLING', subjects: ['billing.*.*.v1'] },
  /** Summary events (built), published by the summary service's outbox. */
  SUMMARY: { name: 'SUMMARY', subjects: ['summary.*.*.v1'] },
  /** Dead letters from every stream. */
  DLQ: { name: 'DLQ', subjects: ['dlq.>'] },
} as const;

export const SERVICE_NAMES = ['identity', 'documents', 'summary', 'wallet', 'billing', 'notifications', 'audit', 'connections'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];
