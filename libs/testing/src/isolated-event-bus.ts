import type {
  ConsumerHandle,
  ConsumerSpec,
  EventBus,
  EventEnvelope,
  PublishAck,
  PublishOptions,
  StreamSpec,
  TailHandle,
  TailSpec,
} from '@medfolio/messaging';

/**
 * Puts every stream, subject and durable consumer of the wrapped bus under a prefix of its own, so
 * a test can use the machine's real NATS JetStream without touching the streams (AUDIT, DLQ, ...)
 * and durable consumers of anything else running on it. Handlers see the subjects unprefixed.
 * Give the JetStream bus `deadLetterPrefix: isolatedDeadLetterPrefix(prefix)` to keep dead letters in too.
 */
export class IsolatedEventBus implements EventBus {
  constructor(
    private readonly inner: EventBus,
    private readonly prefix: string,
  ) {
    if (!/^[a-z0-9]+$/.test(prefix)) throw new Error('The prefix must be lower-case letters and digits');
  }

  ensureStream(spec: StreamSpec): Promise<void> {
    return this.inner.ensureStream({
      ...spec,
      name: this.stream(spec.name),
      subjects: spec.subjects.map((s) => this.subject(s)),
    });
  }

  publish(subject: string, data: unknown, options?: PublishOptions): Promise<PublishAck> {
    return this.inner.publish(this.subject(subject), data, options);
  }

  tail<T = unknown>(spec: TailSpec, handler: (event: EventEnvelope<T>) => void): Promise<TailHandle> {
    return this.inner.tail<T>(
      { ...spec, stream: this.stream(spec.stream), filterSubjects: spec.filterSubjects.map((s) => this.subject(s)) },
      (event) => handler({ ...event, subject: event.subject.slice(this.prefix.length + 1) }),
    );
  }

  consume<T = unknown>(
    spec: ConsumerSpec,
    handler: (event: Parameters<Parameters<EventBus['consume']>[1]>[0] & { data: T }) => Promise<void>,
  ): Promise<ConsumerHandle> {
    return this.inner.consume<T>(
      {
        ...spec,
        stream: this.stream(spec.stream),
        durable: `${this.prefix}-${spec.durable}`,
        filterSubjects: spec.filterSubjects.map((s) => this.subject(s)),
      },
      (event) => handler({ ...event, subject: event.subject.slice(this.prefix.length + 1) }),
    );
  }

  isHealthy(): Promise<boolean> {
    return this.inner.isHealthy();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  stream(name: string): string {
    return `${this.prefix.toUpperCase()}_${name}`;
  }

  subject(subject: string): string {
    return `${this.prefix}.${subject}`;
  }
}

/** Dead letters of the isolated streams: `<prefix>.dlq.<STREAM>`, inside the isolated DLQ stream. */
export function isolatedDeadLetterPrefix(prefix: string): string {
  return `${prefix}.dlq`;
}
