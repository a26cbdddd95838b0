import { SetMetadata } from '@nestjs/common';

export const ON_EVENT_METADATA = 'medfolio:on-event';

/** A payload class of libs/contracts, with class-validator rules on every field. */
export type EventPayloadClass = new () => object;

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
  /**
   * The payload's class in libs/contracts (or one per subject), validated as request/reply payloads
   * are (class-validator, unknown fields dropped). The handler receives the validated instance; a
   * payload that fails is logged (ids and rule messages only) and dead-lettered at once, without
   * retries. Required: no event reaches a handler unchecked.
   */
  payload: EventPayloadClass | Readonly<Record<string, EventPayloadClass>>;
  /**
   * Exactly-once effects: the handler receives, as its second argument, a `Once` bound to this
   * consumer (the durable name) and message; what it runs through it is applied in one transaction
   * with the record of the message id in the service's own database, and not again on a
   * redelivery. Work outside it (deleting blobs, calling a provider) runs on every delivery, so it
   * must be harmless to repeat. Needs the service kit (its database).
   */
  once?: boolean;
}

/**
 * Marks a provider method as the handler of a durable consumer. EventsModule subscribes it on
 * application bootstrap and stops it on shutdown. The method receives an `EventEnvelope` (and with
 * `once`, a `Once`) and must return a promise: resolving acks the event, throwing retries it (see
 * event-bus.ts).
 *
 * @example
 *   @OnEvent({ stream: STREAMS.BILLING.name, durable: 'documents-entitlements', subjects: [BILLING_SUBJECTS.entitlementChanged],
 *              payload: EntitlementChangedEvent, once: true })
 *   apply(event: EventEnvelope<EntitlementChangedEvent>, once: Once<EntityManager>): Promise<void> {
 *     return this.service.apply(event.data, once);
 *   }
 */
export function OnEvent(options: OnEventOptions): MethodDecorator {
  return SetMetadata(ON_EVENT_METADATA, options);
}
