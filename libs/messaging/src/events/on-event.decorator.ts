import { SetMetadata } from '@nestjs/common';

export const ON_EVENT_METADATA = 'medfolio:on-event';

export interface OnEventOptions {
  stream: string;
  /** Durable consumer name, unique per stream: the service and purpose, e.g. 'audit-writer'. */
  durable: string;
  /** Subjects to receive (inside the stream's subjects). */
  subjects: string[];
  maxDeliver?: number;
  backoffMs?: number[];
  ackWaitMs?: number;
  /** Messages handled at once (see ConsumerSpec.maxInFlight); default 1, in stream order. */
  maxInFlight?: number;
}

/**
 * Marks a provider method as the handler of a durable consumer. EventsModule subscribes it on
 * application bootstrap and stops it on shutdown. The method receives an `EventEnvelope` and
 * must return a promise: resolving acks the event, throwing retries it (see event-bus.ts).
 *
 * @example
 *   @OnEvent({ stream: STREAMS.AUDIT.name, durable: 'audit-writer', subjects: [SUBJECTS.audit.recorded] })
 *   async record(event: EventEnvelope<AuditRecord>): Promise<void> { ... }
 */
export function OnEvent(options: OnEventOptions): MethodDecorator {
  return SetMetadata(ON_EVENT_METADATA, options);
}
