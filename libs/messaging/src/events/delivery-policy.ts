import {
  HEADER,
  type ConsumerSpec,
  type EventEnvelope,
  type EventHandlerFn,
  type Headers,
  type StreamSpec,
} from './event-bus';

/**
 * The delivery rules both buses share, so that JetStream and the in-process bus decide
 * identically what happens to a message after its handler ran.
 */
export const DEFAULTS = {
  maxDeliver: 5,
  backoffMs: [1000, 5000, 30_000],
  ackWaitMs: 30_000,
  duplicateWindowMs: 120_000,
} as const;

/** A consumer spec with every default filled in. */
export type ResolvedConsumerSpec = Required<ConsumerSpec>;

export function resolveConsumerSpec(spec: ConsumerSpec): ResolvedConsumerSpec {
  if (spec.filterSubjects.length === 0) {
    throw new Error(`Consumer ${spec.stream}/${spec.durable}: filterSubjects must name at least one subject`);
  }
  const backoffMs = spec.backoffMs?.length ? spec.backoffMs : [...DEFAULTS.backoffMs];
  return {
    stream: spec.stream,
    durable: spec.durable,
    filterSubjects: spec.filterSubjects,
    maxDeliver: Math.max(1, spec.maxDeliver ?? DEFAULTS.maxDeliver),
    backoffMs,
    ackWaitMs: spec.ackWaitMs ?? DEFAULTS.ackWaitMs,
    maxInFlight: Math.max(1, Math.floor(spec.maxInFlight ?? 1)),
  };
}

export function duplicateWindowMs(spec: StreamSpec): number {
  return spec.duplicateWindowMs ?? DEFAULTS.duplicateWindowMs;
}

/** The delay before delivery number `deliveryCount + 1`; the last backoff value repeats. */
export function backoffDelayMs(backoffMs: readonly number[], deliveryCount: number): number {
  return backoffMs[Math.min(deliveryCount, backoffMs.length) - 1] ?? 0;
}

/**
 * A message no retry can help (its payload breaks the contract): dead-lettered at its first
 * delivery instead of after `maxDeliver`. The message says what is wrong, never the payload's values.
 */
export class InvalidEventError extends Error {
  override readonly name = 'InvalidEventError';
}

export type Outcome =
  { kind: 'ack' } | { kind: 'retry'; delayMs: number; error: string } | { kind: 'dead-letter'; error: string };

/**
 * Runs the handler for one delivery and says what to do with the message.
 * `envelope` is built inside the try, so a payload that does not parse counts as a failure
 * (and ends in the DLQ) instead of blocking the consumer.
 * An InvalidEventError dead-letters at once (retrying cannot make the payload valid).
 * A delivery past `maxDeliver` (the process died during the last attempt, or dead-lettering
 * failed before) does not run the handler again: it goes straight to the DLQ.
 */
export async function runDelivery<T>(
  spec: ResolvedConsumerSpec,
  deliveryCount: number,
  envelope: () => EventEnvelope<T>,
  handler: EventHandlerFn<T>,
): Promise<Outcome> {
  if (deliveryCount > spec.maxDeliver) {
    return { kind: 'dead-letter', error: `no result after ${spec.maxDeliver} deliveries (consumer stopped or died)` };
  }
  try {
    await handler(envelope());
    return { kind: 'ack' };
  } catch (err) {
    const error = errorMessage(err);
    if (err instanceof InvalidEventError || deliveryCount >= spec.maxDeliver) return { kind: 'dead-letter', error };
    return { kind: 'retry', delayMs: backoffDelayMs(spec.backoffMs, deliveryCount), error };
  }
}

export interface DeadLetterSource {
  subject: string;
  stream: string;
  seq: number;
  durable: string;
  deliveryCount: number;
  error: string;
  /** The original message's application headers (correlation id, caller), kept as they were. */
  headers: Headers;
}

/** Headers of the dead-lettered copy: the original ones plus where it came from and why. */
export function deadLetterHeaders(source: DeadLetterSource): Headers {
  return {
    ...source.headers,
    [HEADER.dlqSubject]: source.subject,
    [HEADER.dlqStream]: source.stream,
    [HEADER.dlqSequence]: String(source.seq),
    [HEADER.dlqConsumer]: source.durable,
    [HEADER.dlqError]: toHeaderValue(source.error),
    [HEADER.dlqDeliveries]: String(source.deliveryCount),
  };
}

/**
 * The msgId of a dead-lettered copy: one per (stream, message, consumer), so dead-lettering
 * again after a crash between the DLQ publish and the ack stores it only once.
 */
export function deadLetterMsgId(source: Pick<DeadLetterSource, 'stream' | 'seq' | 'durable'>): string {
  return `dlq:${source.stream}:${source.seq}:${source.durable}`;
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Header values are one line; errors can be long or multi-line. */
function toHeaderValue(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').slice(0, 1000);
}
