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
  health: (service: ServiceName) => `${service}.health.check`,
} as const;

export const STREAMS = {
  /** Audit records from every service. Fail-closed: publishers wait for its ack. */
  AUDIT: { name: 'AUDIT', subjects: ['audit.event.>'] },
  /** Dead letters from every stream. */
  DLQ: { name: 'DLQ', subjects: ['dlq.>'] },
} as const;

export const SERVICE_NAMES = ['identity', 'documents', 'summary', 'wallet', 'billing', 'notifications', 'audit'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];
