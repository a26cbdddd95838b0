import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { headers as natsHeaders, nanos, type MsgHdrs, type NatsConnection } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  jetstream,
  jetstreamManager,
  type ConsumerConfig,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import {
  deadLetterSubject,
  DEFAULT_DEAD_LETTER_PREFIX,
  type ConsumerHandle,
  type ConsumerSpec,
  type EventBus,
  type EventEnvelope,
  type EventHandlerFn,
  type Headers,
  type PublishAck,
  type PublishOptions,
  type StreamSpec,
  type TailHandle,
  type TailSpec,
} from './event-bus';
import {
  backoffDelayMs,
  deadLetterHeaders,
  deadLetterMsgId,
  duplicateWindowMs,
  errorMessage,
  resolveConsumerSpec,
  runDelivery,
  type Outcome,
  type ResolvedConsumerSpec,
} from './delivery-policy';
import { matchesAny } from './subject-match';
import { NATS_RECONNECT } from '../nats-reconnect';

/** A publish refused because the connection to NATS is down (it reconnects by itself). */
export class NatsUnavailableError extends Error {
  constructor() {
    super('NATS is not connected');
    this.name = 'NatsUnavailableError';
  }
}

export interface JetStreamEventBusOptions {
  /** A URL to connect to (the bus owns and closes that connection), or an open connection to share. */
  connection: string | NatsConnection;
  /** Connection name shown in NATS monitoring, e.g. the service name. */
  name?: string;
  /** Timeout for PubAcks and JetStream API calls. Default 5 s. */
  timeoutMs?: number;
  /** Dead letters go to `<prefix>.<STREAM>`. Default 'dlq' (see deadLetterSubject). */
  deadLetterPrefix?: string;
}

/**
 * Deliveries JetStream still makes after `maxDeliver`: the handler is not run again, they only
 * retry getting the message into the DLQ (after a crash mid-attempt, or a failed DLQ publish).
 * Without them the server would silently stop delivering such a message.
 */
const DEAD_LETTER_DELIVERIES = 3;

/**
 * The EventBus on NATS JetStream: file-backed streams, durable pull consumers with explicit acks.
 *
 * Each consumer has `max_ack_pending: 1` (unless it sets `maxInFlight`), so the server itself hands
 * out one message at a time in stream order, even when several replicas of a service share the durable.
 */
export class JetStreamEventBus implements EventBus {
  private readonly logger = new Logger(JetStreamEventBus.name);
  private readonly js: JetStreamClient;
  private readonly running = new Set<ConsumerHandle>();

  private constructor(
    private readonly nc: NatsConnection,
    private readonly jsm: JetStreamManager,
    private readonly ownsConnection: boolean,
    timeoutMs: number,
    private readonly deadLetterPrefix: string,
  ) {
    this.js = jetstream(nc, { timeout: timeoutMs });
    void this.followConnection();
  }

  /** False from a disconnect until the client is back: publishes then fail at once instead of waiting out their time-out. */
  private connected = true;

  private async followConnection(): Promise<void> {
    for await (const status of this.nc.status()) {
      if (status.type === 'disconnect') this.connected = false;
      else if (status.type === 'reconnect') this.connected = true;
    }
  }

  static async connect(options: JetStreamEventBusOptions): Promise<JetStreamEventBus> {
    const timeoutMs = options.timeoutMs ?? 5000;
    const owns = typeof options.connection === 'string';
    const nc =
      typeof options.connection === 'string'
        ? await connect({ servers: options.connection, name: options.name, ...NATS_RECONNECT })
        : options.connection;
    try {
      const jsm = await jetstreamManager(nc, { timeout: timeoutMs });
      return new JetStreamEventBus(nc, jsm, owns, timeoutMs, options.deadLetterPrefix ?? DEFAULT_DEAD_LETTER_PREFIX);
    } catch (err) {
      if (owns) await nc.close();
      throw err;
    }
  }

  async ensureStream(spec: StreamSpec): Promise<void> {
    const wanted = {
      subjects: spec.subjects,
      duplicate_window: nanos(duplicateWindowMs(spec)),
      num_replicas: spec.replicas ?? 1,
    };
    const current = await this.jsm.streams.info(spec.name).catch(orUndefinedIf(JetStreamApiCodes.StreamNotFound));
    if (!current) {
      await this.jsm.streams.add({ name: spec.name, ...wanted });
      return;
    }
    const { config } = current;
    const same =
      sameMembers(config.subjects ?? [], wanted.subjects) &&
      config.duplicate_window === wanted.duplicate_window &&
      config.num_replicas === wanted.num_replicas;
    if (!same) await this.jsm.streams.update(spec.name, wanted);
  }

  async publish(subject: string, data: unknown, options: PublishOptions = {}): Promise<PublishAck> {
    // Fail fast while NATS is away (the client would buffer the message and wait for an ack until
    // its time-out): callers answer 503 at once, the outbox relay retries later.
    if (!this.connected) throw new NatsUnavailableError();
    const ack = await this.js.publish(subject, JSON.stringify(data ?? null), {
      msgID: options.msgId ?? randomUUID(),
      headers: toNatsHeaders(options.headers ?? {}),
    });
    return { stream: ack.stream, seq: ack.seq, duplicate: ack.duplicate };
  }

  async consume<T = unknown>(spec: ConsumerSpec, handler: EventHandlerFn<T>): Promise<ConsumerHandle> {
    const resolved = resolveConsumerSpec(spec);
    const filterHere = await this.ensureConsumer(resolved);
    const consumer = await this.js.consumers.get(resolved.stream, resolved.durable);
    const messages = await consumer.consume({ max_messages: resolved.maxInFlight });
    const loop = this.processMessages(resolved, messages, handler, filterHere);
    const handle: ConsumerHandle = {
      stop: async () => {
        this.running.delete(handle);
        // Stops pulling; the message being handled (if any) finishes and is acked first.
        messages.stop();
        await loop;
        if (!this.nc.isClosed()) await this.nc.flush();
      },
    };
    this.running.add(handle);
    return handle;
  }

  /** An ordered consumer (ephemeral, recreated by the client after a gap or a reconnect). */
  async tail<T = unknown>(spec: TailSpec, handler: (event: EventEnvelope<T>) => void): Promise<TailHandle> {
    // Servers before 2.10 filter on one subject only: those get everything, filtered here.
    const serverFilters = serverAtLeast(this.nc.info?.version, 2, 10);
    const consumer = await this.js.consumers.get(spec.stream, {
      ...(serverFilters ? { filter_subjects: spec.filterSubjects } : {}),
      deliver_policy: DeliverPolicy.StartTime,
      opt_start_time: new Date(spec.sinceMs).toISOString(),
    });
    let markCaughtUp!: () => void;
    const caughtUp = new Promise<void>((resolve) => (markCaughtUp = resolve));
    if ((await consumer.info(true)).num_pending === 0) markCaughtUp();
    const messages = await consumer.consume();
    const reading = (async () => {
      for await (const msg of messages) {
        try {
          if (matchesAny(spec.filterSubjects, msg.subject)) handler(toEnvelope<T>(msg));
        } catch (error) {
          this.logger.error({ err: errorMessage(error), subject: msg.subject }, 'tail handler failed');
        }
        if (msg.info.pending === 0) markCaughtUp();
      }
    })();
    const handle: TailHandle = {
      caughtUp,
      stop: async () => {
        this.running.delete(handle);
        await messages.close();
        await reading.catch(() => undefined);
      },
    };
    this.running.add(handle);
    return handle;
  }

  async isHealthy(): Promise<boolean> {
    if (this.nc.isClosed() || !this.connected) return false;
    try {
      await this.jsm.getAccountInfo();
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.running].map((handle) => handle.stop()));
    if (this.nc.isClosed()) return;
    if (this.ownsConnection) await this.nc.drain();
    else await this.nc.flush();
  }

  /**
   * Creates the durable consumer, or updates it when its settings changed (a new deploy).
   * Returns true when the server cannot filter and this client must skip other subjects.
   */
  private async ensureConsumer(spec: ResolvedConsumerSpec): Promise<boolean> {
    const multiFilter = spec.filterSubjects.length > 1;
    const serverFilters = !multiFilter || serverAtLeast(this.nc.info?.version, 2, 10);
    const wanted = consumerConfig(spec, serverFilters);
    const current = await this.jsm.consumers
      .info(spec.stream, spec.durable)
      .catch(orUndefinedIf(JetStreamApiCodes.ConsumerNotFound));
    if (!current) {
      await this.jsm.consumers.add(spec.stream, wanted);
    } else if (consumerDiffers(current.config, wanted)) {
      const { durable_name: _name, ack_policy: _ack, deliver_policy: _deliver, ...updatable } = wanted;
      await this.jsm.consumers.update(spec.stream, spec.durable, updatable);
    }
    return !serverFilters;
  }

  /**
   * The consumer's loop: one message at a time, or up to `maxInFlight` handlers running at once;
   * never throws (stop() awaits it, and the messages still being handled).
   */
  private async processMessages<T>(
    spec: ResolvedConsumerSpec,
    messages: ConsumerMessages,
    handler: EventHandlerFn<T>,
    filterHere: boolean,
  ): Promise<void> {
    const inFlight = new Set<Promise<void>>();
    const deliver = async (msg: JsMsg): Promise<void> => {
      const outcome = await runDelivery(spec, msg.info.deliveryCount, () => toEnvelope<T>(msg), handler);
      await this.settle(spec, msg, outcome);
    };
    try {
      for await (const msg of messages) {
        if (filterHere && !matchesAny(spec.filterSubjects, msg.subject)) {
          msg.ack();
          continue;
        }
        if (spec.maxInFlight === 1) {
          await deliver(msg);
          continue;
        }
        const delivery = deliver(msg)
          .catch((err: unknown) => this.logger.error(`Delivery failed on ${spec.stream}/${spec.durable}: ${errorMessage(err)}`))
          .finally(() => inFlight.delete(delivery));
        inFlight.add(delivery);
        if (inFlight.size >= spec.maxInFlight) await Promise.race(inFlight);
      }
    } catch (err) {
      this.logger.error(`Consumer ${spec.stream}/${spec.durable} stopped: ${errorMessage(err)}`);
    }
    await Promise.all(inFlight);
  }

  private async settle(spec: ResolvedConsumerSpec, msg: JsMsg, outcome: Outcome): Promise<void> {
    const where = `${spec.stream}/${spec.durable} seq ${msg.seq} (${msg.subject}), delivery ${msg.info.deliveryCount}`;
    switch (outcome.kind) {
      case 'ack':
        msg.ack();
        return;
      case 'retry':
        this.logger.warn(`Handler failed for ${where}; retrying in ${outcome.delayMs} ms: ${outcome.error}`);
        msg.nak(outcome.delayMs);
        return;
      case 'dead-letter':
        try {
          const source = {
            subject: msg.subject,
            stream: spec.stream,
            seq: msg.seq,
            durable: spec.durable,
            deliveryCount: msg.info.deliveryCount,
            error: outcome.error,
            headers: applicationHeaders(msg.headers),
          };
          await this.js.publish(deadLetterSubject(spec.stream, this.deadLetterPrefix), msg.data, {
            msgID: deadLetterMsgId(source),
            headers: toNatsHeaders(deadLetterHeaders(source)),
          });
          this.logger.error(`Dead-lettered ${where}: ${outcome.error}`);
          msg.term();
        } catch (err) {
          this.logger.error(`Could not dead-letter ${where}; will retry: ${errorMessage(err)}`);
          msg.nak(backoffDelayMs(spec.backoffMs, msg.info.deliveryCount));
        }
        return;
    }
  }
}

/**
 * The durable consumer's server-side settings.
 * `backoff` only paces redeliveries of messages nobody answered (the process died or hung):
 * a failing handler is paced by `nak(delay)` instead. JetStream then uses `backoff[0]` as the
 * ack wait, so every step is the ack wait plus the backoff step, and it requires
 * `max_deliver` > `backoff.length`.
 */
function consumerConfig(spec: ResolvedConsumerSpec, serverFilters: boolean): Partial<ConsumerConfig> {
  const maxDeliver = spec.maxDeliver + DEAD_LETTER_DELIVERIES;
  const backoff = spec.backoffMs.slice(0, maxDeliver - 1).map((ms) => nanos(spec.ackWaitMs + ms));
  const config: Partial<ConsumerConfig> = {
    durable_name: spec.durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    max_ack_pending: spec.maxInFlight,
    max_deliver: maxDeliver,
    ack_wait: backoff[0],
    backoff,
  };
  if (!serverFilters) return config;
  if (spec.filterSubjects.length === 1) config.filter_subject = spec.filterSubjects[0];
  else config.filter_subjects = spec.filterSubjects;
  return config;
}

function consumerDiffers(current: Partial<ConsumerConfig>, wanted: Partial<ConsumerConfig>): boolean {
  return (
    current.ack_wait !== wanted.ack_wait ||
    current.max_deliver !== wanted.max_deliver ||
    current.max_ack_pending !== wanted.max_ack_pending ||
    !sameSequence(current.backoff ?? [], wanted.backoff ?? []) ||
    (current.filter_subject ?? '') !== (wanted.filter_subject ?? '') ||
    !sameMembers(current.filter_subjects ?? [], wanted.filter_subjects ?? [])
  );
}

function toEnvelope<T>(msg: JsMsg): EventEnvelope<T> {
  return {
    id: msg.headers?.get('Nats-Msg-Id') || `${msg.info.stream}:${msg.seq}`,
    subject: msg.subject,
    data: msg.json<T>(),
    headers: applicationHeaders(msg.headers),
    deliveryCount: msg.info.deliveryCount,
    seq: msg.seq,
  };
}

/** The message's own headers, without the ones NATS uses for itself (`Nats-Msg-Id`, ...). */
function applicationHeaders(hdrs: MsgHdrs | undefined): Headers {
  const out: Headers = {};
  if (!hdrs) return out;
  for (const key of hdrs.keys()) {
    if (!key.toLowerCase().startsWith('nats-')) out[key] = hdrs.get(key);
  }
  return out;
}

function toNatsHeaders(values: Headers): MsgHdrs {
  const hdrs = natsHeaders();
  for (const [key, value] of Object.entries(values)) hdrs.set(key, value);
  return hdrs;
}

/** For `.catch()`: turns the JetStream API error with this code into `undefined`, rethrows others. */
function orUndefinedIf(code: number) {
  return (err: unknown): undefined => {
    if (err instanceof JetStreamApiError && err.code === code) return undefined;
    throw err;
  };
}

function serverAtLeast(version: string | undefined, major: number, minor: number): boolean {
  const [maj = 0, min = 0] = (version ?? '').split('.').map(Number);
  return maj > major || (maj === major && min >= minor);
}

function sameMembers(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item) => b.includes(item));
}

function sameSequence(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}
