import { randomUUID } from 'node:crypto';
import { resolveConsumerSpec } from './delivery-policy';
import {
  DEFAULT_DEAD_LETTER_PREFIX,
  type ConsumerHandle,
  type ConsumerSpec,
  type EventBus,
  type EventHandlerFn,
  type Headers,
  type PublishAck,
  type PublishOptions,
  type StreamSpec,
  type TailHandle,
  type TailSpec,
  type EventEnvelope,
} from './event-bus';
import { InProcessConsumer } from './in-process-consumer';
import { MemoryStream } from './in-process-stream';

export interface InProcessEventBusOptions {
  /**
   * Directory for the streams and consumer positions (append-only JSON lines), so events
   * published but not yet consumed survive a restart. Without it everything lives in memory.
   */
  dataDir?: string;
  /** Dead letters go to `<prefix>.<STREAM>`. Default 'dlq' (see deadLetterSubject). */
  deadLetterPrefix?: string;
}

/**
 * The EventBus of the embedded one-process mode: JetStream's semantics (see event-bus.ts)
 * without NATS. Streams keep every message (like JetStream's default limits), so a durable
 * consumer registered late still receives everything from the start, until housekeeping prunes
 * (`prune`) the messages older than the retention that every durable consumer is done with.
 */
export class InProcessEventBus implements EventBus {
  private readonly streams = new Map<string, MemoryStream>();
  /** Opening a stream may read files; concurrent ensureStream calls share one promise. */
  private readonly opening = new Map<string, Promise<MemoryStream>>();
  private readonly consumers = new Set<ConsumerHandle>();
  private closed = false;

  constructor(private readonly options: InProcessEventBusOptions = {}) {}

  async ensureStream(spec: StreamSpec): Promise<void> {
    this.assertOpen();
    const open = this.streams.get(spec.name);
    if (open) {
      open.update(spec);
      return;
    }
    let opening = this.opening.get(spec.name);
    if (!opening) {
      opening = MemoryStream.open(spec, this.options.dataDir);
      this.opening.set(spec.name, opening);
    }
    try {
      const stream = await opening;
      stream.update(spec);
      this.streams.set(spec.name, stream);
    } finally {
      this.opening.delete(spec.name);
    }
  }

  publish(subject: string, data: unknown, options: PublishOptions = {}): Promise<PublishAck> {
    return this.publishRaw(subject, JSON.stringify(data ?? null), options.msgId ?? randomUUID(), options.headers ?? {});
  }

  async consume<T = unknown>(spec: ConsumerSpec, handler: EventHandlerFn<T>): Promise<ConsumerHandle> {
    this.assertOpen();
    const resolved = resolveConsumerSpec(spec);
    const stream = this.streams.get(resolved.stream);
    if (!stream) throw new Error(`Stream not found: ${resolved.stream}`);
    const consumer = new InProcessConsumer(stream, resolved, handler, {
      deadLetterPrefix: this.options.deadLetterPrefix ?? DEFAULT_DEAD_LETTER_PREFIX,
      publishRaw: (...args) => this.publishRaw(...args),
    });
    const handle: ConsumerHandle = {
      stop: async () => {
        this.consumers.delete(handle);
        await consumer.stop();
      },
    };
    this.consumers.add(handle);
    return handle;
  }

  async tail<T = unknown>(spec: TailSpec, handler: (event: EventEnvelope<T>) => void): Promise<TailHandle> {
    this.assertOpen();
    const stream = this.streams.get(spec.stream);
    if (!stream) throw new Error(`Stream not found: ${spec.stream}`);
    let position = 0;
    // Synchronous: every stored message is handed over before this returns, and each new one as it is stored.
    const deliverNew = () => {
      for (let m = stream.messageAfterSince(position, spec.filterSubjects, spec.sinceMs); m; m = stream.messageAfter(m.seq, spec.filterSubjects)) {
        position = m.seq;
        handler({ id: m.id, subject: m.subject, data: JSON.parse(m.payload) as T, headers: { ...m.headers }, deliveryCount: 1, seq: m.seq });
      }
    };
    deliverNew();
    const unsubscribe = stream.onAppend(deliverNew);
    const handle: TailHandle = {
      caughtUp: Promise.resolve(),
      stop: async () => {
        unsubscribe();
        this.consumers.delete(handle);
      },
    };
    this.consumers.add(handle);
    return handle;
  }

  /**
   * Housekeeping of the on-disk event logs: in every stream, drops the messages stored before
   * `before` that every durable consumer is done with (see MemoryStream.prune). Returns how many went.
   */
  async prune(before: Date): Promise<number> {
    this.assertOpen();
    let total = 0;
    for (const stream of this.streams.values()) total += await stream.prune(before.getTime());
    return total;
  }

  async isHealthy(): Promise<boolean> {
    return !this.closed;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.consumers].map((handle) => handle.stop()));
    await Promise.all([...this.streams.values()].map((stream) => stream.close()));
  }

  private async publishRaw(subject: string, payload: string, msgId: string, headers: Headers): Promise<PublishAck> {
    this.assertOpen();
    for (const stream of this.streams.values()) {
      if (stream.captures(subject)) return stream.append(subject, payload, msgId, { ...headers });
    }
    throw new Error(`No stream captures subject ${subject}`);
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('InProcessEventBus is closed');
  }
}
