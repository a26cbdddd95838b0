import { join } from 'node:path';
import { AppendLog } from './append-log';
import { duplicateWindowMs } from './delivery-policy';
import type { Headers, PublishAck, StreamSpec } from './event-bus';
import { matchesAny } from './subject-match';

export interface StoredMessage {
  seq: number;
  subject: string;
  /** The msgId. */
  id: string;
  headers: Headers;
  /** The JSON text, parsed afresh for each delivery (as it would be off the wire). */
  payload: string;
  /** When it was stored (ms since the epoch); the duplicate window counts from here. */
  time: number;
}

/** Where a durable consumer stands. Only `ackFloor` outlives the process. */
export interface DurableState {
  /** Every message up to this sequence is done (acked, dead-lettered or not for this consumer). */
  ackFloor: number;
  /** The message being retried: its deliveries so far and when it may be delivered again. */
  retry?: { seq: number; deliveries: number; notBefore: number };
  /** A handler is attached in this process. */
  active: boolean;
}

interface AckRecord {
  durable: string;
  seq: number;
}

/**
 * One stream of the in-process bus: messages with sequence numbers, msgId de-duplication and
 * durable consumer positions. With a data directory, messages (fsync'ed before the publish
 * resolves) and acks (not fsync'ed: a lost ack means one redelivery) go to append-only files
 * `<STREAM>.messages.jsonl` and `<STREAM>.acks.jsonl`, and are read back on the next start.
 */
export class MemoryStream {
  private readonly messages: StoredMessage[] = [];
  /** The sequence number of messages[0] (earlier ones were pruned). */
  private firstSeq = 1;
  private readonly recentIds = new Map<string, StoredMessage>();
  private readonly durables = new Map<string, DurableState>();
  private readonly appendListeners = new Set<() => void>();
  /** Publishes run one after another, so sequence numbers and file order always agree. */
  private publishing: Promise<unknown> = Promise.resolve();

  private constructor(
    private spec: StreamSpec,
    private readonly messageLog?: AppendLog,
    private readonly ackLog?: AppendLog,
  ) {}

  static async open(spec: StreamSpec, dataDir?: string): Promise<MemoryStream> {
    if (!dataDir) return new MemoryStream(spec);
    if (!/^[A-Za-z0-9_-]+$/.test(spec.name)) throw new Error(`Stream name not usable as a file name: ${spec.name}`);
    const stream = new MemoryStream(
      spec,
      new AppendLog(join(dataDir, `${spec.name}.messages.jsonl`)),
      new AppendLog(join(dataDir, `${spec.name}.acks.jsonl`)),
    );
    await stream.load();
    return stream;
  }

  get name(): string {
    return this.spec.name;
  }

  update(spec: StreamSpec): void {
    this.spec = spec;
  }

  get lastSeq(): number {
    return this.firstSeq + this.messages.length - 1;
  }

  captures(subject: string): boolean {
    return matchesAny(this.spec.subjects, subject);
  }

  /** Stores a message, or returns the earlier one's ack when `id` was seen inside the duplicate window. */
  append(subject: string, payload: string, id: string, headers: Headers): Promise<PublishAck> {
    const result = this.publishing.then(async (): Promise<PublishAck> => {
      const now = Date.now();
      this.forgetIdsBefore(now - duplicateWindowMs(this.spec));
      const earlier = this.recentIds.get(id);
      if (earlier) return { stream: this.name, seq: earlier.seq, duplicate: true };
      const message: StoredMessage = { seq: this.lastSeq + 1, subject, id, headers, payload, time: now };
      await this.messageLog?.append(message, true);
      this.store(message);
      for (const listener of this.appendListeners) listener();
      return { stream: this.name, seq: message.seq, duplicate: false };
    });
    this.publishing = result.catch(() => undefined);
    return result;
  }

  /** The first message after `seq` on one of these subjects. */
  messageAfter(seq: number, filterSubjects: readonly string[]): StoredMessage | undefined {
    // Sequences have no gaps, so message `seq + 1` sits at index `seq + 1 - firstSeq`.
    for (let i = Math.max(0, seq + 1 - this.firstSeq); i < this.messages.length; i++) {
      if (matchesAny(filterSubjects, this.messages[i].subject)) return this.messages[i];
    }
    return undefined;
  }

  /** The first message after `seq` on one of these subjects stored at or after `sinceMs`. */
  messageAfterSince(seq: number, filterSubjects: readonly string[], sinceMs: number): StoredMessage | undefined {
    let message = this.messageAfter(seq, filterSubjects);
    while (message && message.time < sinceMs) message = this.messageAfter(message.seq, filterSubjects);
    return message;
  }

  durable(name: string): DurableState {
    let state = this.durables.get(name);
    if (!state) {
      state = { ackFloor: 0, active: false };
      this.durables.set(name, state);
    }
    return state;
  }

  async ack(durable: string, seq: number): Promise<void> {
    const state = this.durable(durable);
    state.ackFloor = seq;
    state.retry = undefined;
    await this.ackLog?.append({ durable, seq } satisfies AckRecord, false);
  }

  /** Calls `listener` after every stored message; returns the unsubscribe function. */
  onAppend(listener: () => void): () => void {
    this.appendListeners.add(listener);
    return () => this.appendListeners.delete(listener);
  }

  /**
   * Housekeeping: drops the messages stored before `beforeMs` that every durable consumer of the
   * stream is done with (at or below every ack floor), and rewrites both files (the acks as one
   * line per durable). The newest message always stays: it carries the sequence numbers on across
   * a restart. Runs between publishes. Returns how many messages went.
   */
  prune(beforeMs: number): Promise<number> {
    const result = this.publishing.then(async () => {
      const floors = [...this.durables.values()].map((d) => d.ackFloor);
      const done = floors.length ? Math.min(...floors) : this.lastSeq;
      let count = 0;
      while (count < this.messages.length - 1 && this.messages[count].time < beforeMs && this.messages[count].seq <= done) count++;
      if (count === 0) return 0;
      this.messages.splice(0, count);
      this.firstSeq = this.messages[0].seq;
      await this.messageLog?.rewrite(this.messages);
      await this.ackLog?.rewrite([...this.durables].map(([durable, state]) => ({ durable, seq: state.ackFloor }) satisfies AckRecord));
      return count;
    });
    this.publishing = result.catch(() => undefined);
    return result;
  }

  async close(): Promise<void> {
    await this.publishing;
    await Promise.all([this.messageLog?.close(), this.ackLog?.close()]);
  }

  private async load(): Promise<void> {
    const [messages, acks] = await Promise.all([
      this.messageLog?.load<StoredMessage>() ?? [],
      this.ackLog?.load<AckRecord>() ?? [],
    ]);
    for (const message of messages) this.store(message);
    this.firstSeq = messages[0]?.seq ?? 1;
    this.forgetIdsBefore(Date.now() - duplicateWindowMs(this.spec));
    for (const { durable, seq } of acks) {
      const state = this.durable(durable);
      state.ackFloor = Math.max(state.ackFloor, seq);
    }
  }

  private store(message: StoredMessage): void {
    this.messages.push(message);
    // Delete first: re-setting a key would keep its old place in the (time-ordered) map.
    this.recentIds.delete(message.id);
    this.recentIds.set(message.id, message);
  }

  /** Ids are kept in insertion (= time) order, so the expired ones are at the front. */
  private forgetIdsBefore(time: number): void {
    for (const [id, message] of this.recentIds) {
      if (message.time >= time) break;
      this.recentIds.delete(id);
    }
  }
}
