/**
 * Durable domain events: the transport-neutral contract.
 *
 * Two implementations keep these exact semantics and pass one contract test suite:
 * - JetStreamEventBus (real NATS JetStream, used in Kubernetes and the multi-process mode)
 * - InProcessEventBus (the embedded one-process mode of `npm start`)
 *
 * Semantics:
 * - Streams are created idempotently (`ensureStream` may be called by every service at start).
 * - `publish` resolves only once the stream has stored the message (JetStream's PubAck).
 *   A second publish with the same `msgId` inside the duplicate window is stored once
 *   (`duplicate: true`), which is what makes the outbox relay safe to retry.
 * - Consumers are durable and named: a restart resumes after the last acked message.
 * - A handler that resolves acks the message; one that throws is redelivered after
 *   `backoffMs[attempt-1]` (the last value repeats), at most `maxDeliver` deliveries in all;
 *   after that the message is published to the dead-letter subject (see `deadLetterSubject`)
 *   with headers saying where it came from and why, and is terminated on the original stream
 *   (acked for good: never redelivered).
 *   If that publish fails (no DLQ stream, NATS down), the message is retried later rather than lost.
 * - Messages on one consumer are delivered one at a time, in stream order: a message waiting
 *   for its redelivery holds back the ones after it (unless the consumer sets `maxInFlight`).
 */
export type Headers = Record<string, string>;

/** Header names every message carries (request/reply and events alike). */
export const HEADER = {
  correlationId: 'x-correlation-id',
  /** JSON of {@link CallerIdentity}; set by the gateway, never taken from a client payload. */
  caller: 'x-caller',
  /** On dead-lettered messages: the original subject, stream, sequence, consumer and last error. */
  dlqSubject: 'x-dlq-original-subject',
  dlqStream: 'x-dlq-original-stream',
  dlqSequence: 'x-dlq-original-seq',
  dlqConsumer: 'x-dlq-consumer',
  dlqError: 'x-dlq-error',
  dlqDeliveries: 'x-dlq-deliveries',
} as const;

export interface StreamSpec {
  /** e.g. 'AUDIT' */
  name: string;
  /** e.g. ['audit.>'] */
  subjects: string[];
  /** Duplicate window for msgId de-duplication; default 2 minutes. */
  duplicateWindowMs?: number;
  /** JetStream replicas (1 here, 3 in production: see deploy/). Ignored in-process. */
  replicas?: number;
}

export interface ConsumerSpec {
  stream: string;
  /** Durable consumer name, unique per stream: the service and purpose, e.g. 'audit-writer'. */
  durable: string;
  /** Subjects this consumer receives (inside the stream's subjects). */
  filterSubjects: string[];
  /** Total deliveries before dead-lettering. Default 5. */
  maxDeliver?: number;
  /** Redelivery delays; the last value repeats. Default [1000, 5000, 30000]. */
  backoffMs?: number[];
  /**
   * How long a handler may run before JetStream assumes the process died and redelivers.
   * Default 30 s. Ignored in-process (a dead process takes its consumers with it).
   */
  ackWaitMs?: number;
  /**
   * JetStream: how many messages may be handed out and unacked at once (the consumer's
   * max_ack_pending), their handlers running concurrently. Default 1: one at a time, in stream
   * order. Above 1 a failing message no longer holds back the ones after it, so only a handler that
   * does not care about order (the audit writer, which batches what arrives together) sets it.
   * The in-process bus ignores it (one at a time).
   */
  maxInFlight?: number;
}

export interface EventEnvelope<T = unknown> {
  /** The message id (Nats-Msg-Id); for outbox events, the outbox row id. */
  id: string;
  subject: string;
  data: T;
  headers: Headers;
  /** 1 on first delivery. */
  deliveryCount: number;
  /** Stream sequence number. */
  seq: number;
}

export interface PublishOptions {
  /** De-duplication id; defaults to a random UUID. */
  msgId?: string;
  headers?: Headers;
}

export interface PublishAck {
  stream: string;
  seq: number;
  duplicate: boolean;
}

export type EventHandlerFn<T = unknown> = (event: EventEnvelope<T>) => Promise<void>;

export interface ConsumerHandle {
  /** Stops delivering to this handler (the durable consumer itself is kept). */
  stop(): Promise<void>;
}

/** What `tail` reads: a stream's messages on some subjects, from a point in time on. */
export interface TailSpec {
  stream: string;
  filterSubjects: string[];
  /** Deliver the messages stored at or after this time (ms since the epoch), then every new one. */
  sinceMs: number;
}

export interface TailHandle extends ConsumerHandle {
  /** Resolves once every message stored before the tail began has been handed to the handler. */
  readonly caughtUp: Promise<void>;
}

export interface EventBus {
  ensureStream(spec: StreamSpec): Promise<void>;
  publish(subject: string, data: unknown, options?: PublishOptions): Promise<PublishAck>;
  consume<T = unknown>(spec: ConsumerSpec, handler: EventHandlerFn<T>): Promise<ConsumerHandle>;
  /**
   * An ephemeral reader for a cache each process keeps (the gateway's revoked sessions): unlike a
   * durable consumer, EVERY process that tails gets every message (no queue, no acks, nothing kept
   * for it once it stops), starting from `sinceMs`, so a process that starts late still sees what
   * happened just before. The handler must not throw; it is called in stream order.
   */
  tail<T = unknown>(spec: TailSpec, handler: (event: EventEnvelope<T>) => void): Promise<TailHandle>;
  /** True while the bus can publish (readiness). */
  isHealthy(): Promise<boolean>;
  close(): Promise<void>;
}

/** Where dead letters go unless a bus is given another prefix. */
export const DEFAULT_DEAD_LETTER_PREFIX = 'dlq';

/**
 * Dead-letter subject for a stream: `dlq.<STREAM>`; the DLQ stream `DLQ` captures `dlq.>`.
 * A bus configured with another prefix (tests sharing a NATS server with a running system,
 * whose `DLQ` stream already owns `dlq.>`) uses `<prefix>.<STREAM>`.
 */
export function deadLetterSubject(stream: string, prefix: string = DEFAULT_DEAD_LETTER_PREFIX): string {
  return `${prefix}.${stream}`;
}

/** Nest injection token for the process's EventBus. */
export const EVENT_BUS = Symbol('EVENT_BUS');
