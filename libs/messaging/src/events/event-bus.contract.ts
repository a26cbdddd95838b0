import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import {
  deadLetterSubject,
  HEADER,
  type ConsumerHandle,
  type ConsumerSpec,
  type EventBus,
  type EventEnvelope,
  type StreamSpec,
} from './event-bus';

/** What each implementation's test file provides to the shared contract suite. */
export interface EventBusHarness {
  bus: EventBus;
  /** The buses' dead-letter prefix (see deadLetterSubject). */
  deadLetterPrefix: string;
  /**
   * Closes the bus and opens a new one on the same store, as a process restart would.
   * Absent when nothing outlives the bus (the in-memory bus).
   */
  restart?: () => Promise<EventBus>;
  /** Deletes the streams the test created and closes every bus the harness opened. */
  dispose(streams: string[]): Promise<void>;
}

interface Payload {
  n: number;
}

/**
 * The semantics documented in event-bus.ts, as tests. Both implementations run this suite,
 * which is what keeps the embedded mode honest about behaving like JetStream.
 * Every test uses its own uniquely-named streams, so runs against a shared NATS never collide.
 */
export function describeEventBusContract(
  name: string,
  createHarness: () => Promise<EventBusHarness>,
  options: { survivesRestart: boolean },
): void {
  describe(`EventBus contract: ${name}`, () => {
    let harness: EventBusHarness;
    let bus: EventBus;
    let created: string[];
    let handles: ConsumerHandle[];

    beforeAll(() => Logger.overrideLogger(false));

    beforeEach(async () => {
      harness = await createHarness();
      bus = harness.bus;
      created = [];
      handles = [];
    });

    afterEach(async () => {
      await Promise.all(handles.map((handle) => handle.stop()));
      await harness.dispose(created);
    });

    /** A fresh stream capturing `<prefix>.>`. */
    async function newStream(): Promise<{ spec: StreamSpec; prefix: string }> {
      const id = randomBytes(4).toString('hex');
      const spec = { name: `CONTRACT_${id}`, subjects: [`contract${id}.>`] };
      created.push(spec.name);
      await bus.ensureStream(spec);
      return { spec, prefix: `contract${id}` };
    }

    /** Consumes into an array; `waitFor(n)` resolves once n events arrived. */
    async function record(
      spec: ConsumerSpec,
      onEvent: (event: EventEnvelope<Payload>) => Promise<void> = async () => undefined,
      on: EventBus = bus,
    ) {
      const events: EventEnvelope<Payload>[] = [];
      const handle = await on.consume<Payload>(spec, async (event) => {
        await onEvent(event);
        events.push(event);
      });
      handles.push(handle);
      return { events, handle, waitFor: (count: number) => waitUntil(() => events.length >= count, `${count} events`) };
    }

    async function publishAll(subject: string, ns: number[]): Promise<void> {
      for (const n of ns) await bus.publish(subject, { n });
    }

    it('ensureStream is idempotent and takes on new subjects', async () => {
      const { spec, prefix } = await newStream();
      await bus.ensureStream(spec);
      await Promise.all([bus.ensureStream(spec), bus.ensureStream(spec)]);
      await expect(bus.publish(`${prefix}.a`, { n: 1 })).resolves.toMatchObject({ stream: spec.name, seq: 1 });

      const other = `other${prefix}.x`;
      await expect(bus.publish(other, { n: 2 })).rejects.toThrow();
      await bus.ensureStream({ ...spec, subjects: [...spec.subjects, `other${prefix}.>`] });
      await expect(bus.publish(other, { n: 2 })).resolves.toMatchObject({ stream: spec.name, seq: 2 });
    });

    it('tail: every tailing process gets every message from its start time on, then each new one', async () => {
      const { spec, prefix } = await newStream();
      await publishAll(`${prefix}.old`, [1]);
      await sleep(50);
      const since = Date.now();
      await sleep(5);
      await publishAll(`${prefix}.a`, [2, 3]);
      await publishAll(`${prefix}.b`, [99]);
      const seen: [string, number][][] = [[], []];
      for (const list of seen) {
        const handle = await bus.tail<Payload>({ stream: spec.name, filterSubjects: [`${prefix}.a`, `${prefix}.old`], sinceMs: since }, (event) => {
          list.push([event.subject, event.data.n]);
        });
        handles.push(handle);
        await handle.caughtUp;
        expect(list).toEqual([
          [`${prefix}.a`, 2],
          [`${prefix}.a`, 3],
        ]);
      }
      await publishAll(`${prefix}.a`, [4]);
      await waitUntil(() => seen.every((list) => list.length === 3), 'the new message on both tails');
      for (const list of seen) expect(list[2]).toEqual([`${prefix}.a`, 4]);
    });

    it('tail: caughtUp resolves at once on a stream with nothing since the start time', async () => {
      const { spec, prefix } = await newStream();
      await publishAll(`${prefix}.a`, [1]);
      await sleep(20);
      const handle = await bus.tail({ stream: spec.name, filterSubjects: [`${prefix}.a`], sinceMs: Date.now() }, () => undefined);
      handles.push(handle);
      await expect(handle.caughtUp).resolves.toBeUndefined();
    });

    it('publish resolves with the stream sequence once stored', async () => {
      const { spec, prefix } = await newStream();
      const acks = [];
      for (const n of [1, 2, 3]) acks.push(await bus.publish(`${prefix}.a`, { n }));
      expect(acks).toEqual([1, 2, 3].map((seq) => ({ stream: spec.name, seq, duplicate: false })));
    });

    it('stores a repeated msgId once (the duplicate window)', async () => {
      const { spec, prefix } = await newStream();
      const first = await bus.publish(`${prefix}.a`, { n: 1 }, { msgId: 'same-id' });
      const again = await bus.publish(`${prefix}.a`, { n: 2 }, { msgId: 'same-id' });
      expect(again).toEqual({ stream: spec.name, seq: first.seq, duplicate: true });
      await bus.publish(`${prefix}.a`, { n: 3 }, { msgId: 'other-id' });

      const { events, waitFor } = await record({
        stream: spec.name,
        durable: 'reader',
        filterSubjects: [`${prefix}.>`],
      });
      await waitFor(2);
      await sleep(100);
      expect(events.map((e) => [e.id, e.data.n])).toEqual([
        ['same-id', 1],
        ['other-id', 3],
      ]);
    });

    it('a durable consumer resumes after its last ack', async () => {
      const { spec, prefix } = await newStream();
      const consumer = { stream: spec.name, durable: 'resumer', filterSubjects: [`${prefix}.>`] };
      await publishAll(`${prefix}.a`, [1, 2]);
      const first = await record(consumer);
      await first.waitFor(2);
      await first.handle.stop();

      await publishAll(`${prefix}.a`, [3, 4]);
      const second = await record(consumer);
      await second.waitFor(2);
      await sleep(100);
      expect(first.events.map((e) => e.data.n)).toEqual([1, 2]);
      expect(second.events.map((e) => e.data.n)).toEqual([3, 4]);
    });

    it('a new durable receives messages published before it existed', async () => {
      const { spec, prefix } = await newStream();
      await publishAll(`${prefix}.a`, [1, 2, 3]);
      const { events, waitFor } = await record({ stream: spec.name, durable: 'late', filterSubjects: [`${prefix}.>`] });
      await waitFor(3);
      expect(events.map((e) => [e.seq, e.data.n, e.deliveryCount])).toEqual([
        [1, 1, 1],
        [2, 2, 1],
        [3, 3, 1],
      ]);
    });

    it('stop() lets the delivery in progress finish and be acked', async () => {
      const { spec, prefix } = await newStream();
      const consumer = { stream: spec.name, durable: 'stopper', filterSubjects: [`${prefix}.>`] };
      let started = false;
      const slow = await record(consumer, async () => {
        started = true;
        await sleep(200);
      });
      await bus.publish(`${prefix}.a`, { n: 1 });
      await waitUntil(() => started, 'the handler to start');
      await slow.handle.stop();
      expect(slow.events).toHaveLength(1);

      await bus.publish(`${prefix}.a`, { n: 2 });
      const next = await record(consumer);
      await next.waitFor(1);
      await sleep(100);
      expect(next.events.map((e) => e.data.n)).toEqual([2]);
    });

    it('delivers one message at a time, in stream order', async () => {
      const { spec, prefix } = await newStream();
      const ns = Array.from({ length: 20 }, (_, i) => i);
      await publishAll(`${prefix}.a`, ns);
      let inFlight = 0;
      let maxInFlight = 0;
      const { events, waitFor } = await record(
        { stream: spec.name, durable: 'ordered', filterSubjects: [`${prefix}.>`] },
        async (event) => {
          maxInFlight = Math.max(maxInFlight, ++inFlight);
          await sleep(event.data.n % 3);
          inFlight--;
        },
      );
      await waitFor(ns.length);
      expect(events.map((e) => e.data.n)).toEqual(ns);
      expect(maxInFlight).toBe(1);
    });

    it('redelivers a failing message after the backoff, holding back later ones, until it succeeds', async () => {
      const { spec, prefix } = await newStream();
      const attempts: { n: number; deliveryCount: number; at: number }[] = [];
      const { events, waitFor } = await record(
        { stream: spec.name, durable: 'flaky', filterSubjects: [`${prefix}.>`], maxDeliver: 5, backoffMs: [100, 200] },
        async (event) => {
          attempts.push({ n: event.data.n, deliveryCount: event.deliveryCount, at: Date.now() });
          if (event.data.n === 1 && event.deliveryCount < 3) throw new Error('not yet');
        },
      );
      await publishAll(`${prefix}.a`, [1, 2]);
      await waitFor(2);

      expect(attempts.map((a) => [a.n, a.deliveryCount])).toEqual([
        [1, 1],
        [1, 2],
        [1, 3],
        [2, 1],
      ]);
      expect(events.map((e) => e.data.n)).toEqual([1, 2]);
      const gaps = [attempts[1].at - attempts[0].at, attempts[2].at - attempts[1].at];
      expect(gaps[0]).toBeGreaterThanOrEqual(90);
      expect(gaps[1]).toBeGreaterThanOrEqual(190);
      expect(gaps[1]).toBeLessThan(1500);
    });

    it('dead-letters a message after maxDeliver failures, with headers saying why, and moves on', async () => {
      const { spec, prefix } = await newStream();
      const dlqSubject = deadLetterSubject(spec.name, harness.deadLetterPrefix);
      const dlq = { name: `${spec.name}_DLQ`, subjects: [dlqSubject] };
      created.push(dlq.name);
      await bus.ensureStream(dlq);
      let failures = 0;
      const { events, waitFor } = await record(
        { stream: spec.name, durable: 'doomed', filterSubjects: [`${prefix}.>`], maxDeliver: 2, backoffMs: [50] },
        async (event) => {
          if (event.data.n === 1) {
            failures++;
            throw new Error('boom\nsecond line');
          }
        },
      );
      await bus.publish(`${prefix}.bad`, { n: 1 }, { headers: { [HEADER.correlationId]: 'corr-dlq' } });
      await bus.publish(`${prefix}.good`, { n: 2 });
      await waitFor(1);
      expect(events.map((e) => e.data.n)).toEqual([2]);
      expect(failures).toBe(2);

      const dead = await record({ stream: dlq.name, durable: 'dlq-reader', filterSubjects: dlq.subjects });
      await dead.waitFor(1);
      const [letter] = dead.events;
      expect(letter.subject).toBe(dlqSubject);
      expect(letter.data).toEqual({ n: 1 });
      expect(letter.headers).toMatchObject({
        [HEADER.correlationId]: 'corr-dlq',
        [HEADER.dlqSubject]: `${prefix}.bad`,
        [HEADER.dlqStream]: spec.name,
        [HEADER.dlqSequence]: '1',
        [HEADER.dlqConsumer]: 'doomed',
        [HEADER.dlqError]: 'boom second line',
        [HEADER.dlqDeliveries]: '2',
      });
    });

    it('carries headers (correlation id, caller) to the handler', async () => {
      const { spec, prefix } = await newStream();
      const caller = JSON.stringify({ userId: 'u-1', roles: ['patient'], correlationId: 'corr-1' });
      await bus.publish(
        `${prefix}.a`,
        { n: 1 },
        { msgId: 'msg-1', headers: { [HEADER.correlationId]: 'corr-1', [HEADER.caller]: caller } },
      );
      const { events, waitFor } = await record({
        stream: spec.name,
        durable: 'headers',
        filterSubjects: [`${prefix}.>`],
      });
      await waitFor(1);
      expect(events[0]).toEqual({
        id: 'msg-1',
        subject: `${prefix}.a`,
        data: { n: 1 },
        headers: { [HEADER.correlationId]: 'corr-1', [HEADER.caller]: caller },
        deliveryCount: 1,
        seq: 1,
      });
    });

    it('delivers only the filterSubjects a consumer asked for', async () => {
      const { spec, prefix } = await newStream();
      const subjects = ['a.1', 'b.1', 'c.deep.1', 'a.2', 'b.2'];
      for (const [n, subject] of subjects.entries()) await bus.publish(`${prefix}.${subject}`, { n });
      const several = await record({
        stream: spec.name,
        durable: 'a-and-c',
        filterSubjects: [`${prefix}.a.*`, `${prefix}.c.>`],
      });
      const single = await record({ stream: spec.name, durable: 'b-only', filterSubjects: [`${prefix}.b.*`] });
      await several.waitFor(3);
      await single.waitFor(2);
      await sleep(100);
      expect(several.events.map((e) => e.subject)).toEqual(['a.1', 'c.deep.1', 'a.2'].map((s) => `${prefix}.${s}`));
      expect(single.events.map((e) => e.subject)).toEqual(['b.1', 'b.2'].map((s) => `${prefix}.${s}`));
    });

    it('gives every message to each of two durables', async () => {
      const { spec, prefix } = await newStream();
      await publishAll(`${prefix}.a`, [1, 2, 3]);
      const one = await record({ stream: spec.name, durable: 'one', filterSubjects: [`${prefix}.>`] });
      const two = await record({ stream: spec.name, durable: 'two', filterSubjects: [`${prefix}.>`] });
      await publishAll(`${prefix}.a`, [4, 5]);
      await Promise.all([one.waitFor(5), two.waitFor(5)]);
      expect(one.events.map((e) => e.data.n)).toEqual([1, 2, 3, 4, 5]);
      expect(two.events.map((e) => e.data.n)).toEqual([1, 2, 3, 4, 5]);
    });

    it('is healthy while open, and not after close', async () => {
      await expect(bus.isHealthy()).resolves.toBe(true);
      await bus.close();
      await expect(bus.isHealthy()).resolves.toBe(false);
    });

    const ifRestartable = options.survivesRestart ? it : it.skip;
    ifRestartable('after a restart, resumes after the last ack and still knows recent msgIds', async () => {
      const restart = harness.restart;
      if (!restart) throw new Error('a harness that survives restarts must provide restart()');
      const { spec, prefix } = await newStream();
      const consumer = { stream: spec.name, durable: 'survivor', filterSubjects: [`${prefix}.>`] };
      await publishAll(`${prefix}.a`, [1, 2]);
      const before = await record(consumer);
      await before.waitFor(2);
      await before.handle.stop();
      await bus.publish(`${prefix}.a`, { n: 3 }, { msgId: 'pending-id' });

      const restarted = await restart();
      await restarted.ensureStream(spec);
      const again = await restarted.publish(`${prefix}.a`, { n: 4 }, { msgId: 'pending-id' });
      expect(again).toEqual({ stream: spec.name, seq: 3, duplicate: true });
      await restarted.publish(`${prefix}.a`, { n: 5 });
      const after = await record(consumer, undefined, restarted);
      await after.waitFor(2);
      await sleep(100);
      expect(after.events.map((e) => [e.seq, e.data.n])).toEqual([
        [3, 3],
        [4, 5],
      ]);
    });
  });
}

async function waitUntil(condition: () => boolean, what: string, timeoutMs = 4000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(10);
  }
}
