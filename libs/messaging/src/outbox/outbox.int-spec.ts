import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import type { DataSource } from 'typeorm';
import type { ConsumerHandle, EventBus, EventEnvelope, PublishAck, PublishOptions } from '../events/event-bus';
import { JetStreamEventBus } from '../events/jetstream-event-bus';
import { ProcessedMessages } from './processed-messages';
import { Outbox } from './outbox';
import { OutboxMessage } from './outbox-message.entity';
import { OutboxRelay } from './outbox-relay';
import { prepareSchema, testDataSource, Widget } from './testing/test-database';

const natsUrl = process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';
const run = randomBytes(4).toString('hex');
const schema = `outbox_test_${run}`;
const stream = { name: `OUTBOX_${run}`, subjects: [`outbox${run}.>`] };

/** A bus that records what the relay publishes (and can be slowed down) before passing it on. */
class RecordingBus implements EventBus {
  readonly published: { msgId: string; ack: PublishAck }[] = [];

  constructor(
    private readonly inner: EventBus,
    private readonly delayMs = 0,
  ) {}

  ensureStream: EventBus['ensureStream'] = (spec) => this.inner.ensureStream(spec);
  consume: EventBus['consume'] = (spec, handler) => this.inner.consume(spec, handler);
  tail: EventBus['tail'] = (spec, handler) => this.inner.tail(spec, handler);
  isHealthy: EventBus['isHealthy'] = () => this.inner.isHealthy();
  close: EventBus['close'] = async () => undefined;

  async publish(subject: string, data: unknown, options: PublishOptions = {}): Promise<PublishAck> {
    if (this.delayMs) await sleep(this.delayMs);
    const ack = await this.inner.publish(subject, data, options);
    this.published.push({ msgId: options.msgId ?? '', ack });
    return ack;
  }
}

describe('Transactional outbox (Postgres + JetStream)', () => {
  let dataSource: DataSource;
  let bus: JetStreamEventBus;
  let handles: ConsumerHandle[] = [];
  let subject: string;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    dataSource = await testDataSource(schema).initialize();
    await prepareSchema(dataSource, schema);
    bus = await JetStreamEventBus.connect({ connection: natsUrl });
    await bus.ensureStream(stream);
  });

  afterAll(async () => {
    await bus.close();
    await dataSource.query(`DROP SCHEMA "${schema}" CASCADE`);
    await dataSource.destroy();
    const nc = await connect({ servers: natsUrl });
    await (await jetstreamManager(nc)).streams.delete(stream.name);
    await nc.close();
  });

  beforeEach(async () => {
    await dataSource.query(`TRUNCATE "${schema}"."outbox", "${schema}"."processed_messages", "${schema}"."widgets"`);
    subject = `outbox${run}.${randomBytes(3).toString('hex')}.changed`;
  });

  afterEach(async () => {
    await Promise.all(handles.map((handle) => handle.stop()));
    handles = [];
  });

  async function addWidget(id: string): Promise<string> {
    return dataSource.transaction(async (manager) => {
      await manager.insert(Widget, { id, count: 1 });
      return Outbox.add(manager, subject, { widget: id }, { 'x-correlation-id': `corr-${id}` });
    });
  }

  /** Every event on this test's subject, as a fresh durable sees them. */
  async function subscribe(): Promise<EventEnvelope[]> {
    const events: EventEnvelope[] = [];
    const durable = `reader-${randomBytes(3).toString('hex')}`;
    handles.push(
      await bus.consume({ stream: stream.name, durable, filterSubjects: [subject] }, async (event) => {
        events.push(event);
      }),
    );
    return events;
  }

  async function waitUntil(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
      await sleep(20);
    }
  }

  const rows = () => dataSource.getRepository(OutboxMessage).find({ order: { createdAt: 'ASC' } });

  it('commits the event row with the change, and neither when the transaction rolls back', async () => {
    const id = await addWidget('kept');
    await expect(
      dataSource.transaction(async (manager) => {
        await manager.insert(Widget, { id: 'rolled-back', count: 1 });
        await Outbox.add(manager, subject, { widget: 'rolled-back' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');

    expect((await dataSource.getRepository(Widget).find()).map((w) => w.id)).toEqual(['kept']);
    expect(await rows()).toEqual([
      expect.objectContaining({
        id,
        subject,
        payload: { widget: 'kept' },
        headers: { 'x-correlation-id': 'corr-kept' },
        publishedAt: null,
        attempts: 0,
      }),
    ]);
  });

  it('refuses to add an event outside a transaction', async () => {
    await expect(Outbox.add(dataSource.manager, subject, { widget: 'loose' })).rejects.toThrow(/open transaction/);
    expect(await rows()).toEqual([]);
  });

  it('relays rows in order with msgId = row id, and marks them published', async () => {
    const ids = [await addWidget('a'), await addWidget('b'), await addWidget('c')];
    const events = await subscribe();
    const relay = new OutboxRelay(dataSource, bus);

    await expect(relay.publishBatch()).resolves.toBe(3);
    await expect(relay.publishBatch()).resolves.toBe(0);
    await waitUntil(() => events.length === 3, '3 events');
    expect(events.map((e) => [e.id, e.data, e.headers['x-correlation-id']])).toEqual([
      [ids[0], { widget: 'a' }, 'corr-a'],
      [ids[1], { widget: 'b' }, 'corr-b'],
      [ids[2], { widget: 'c' }, 'corr-c'],
    ]);
    for (const row of await rows()) {
      expect(row.publishedAt).toBeInstanceOf(Date);
      expect(row.attempts).toBe(1);
    }
  });

  it('records a failed publish and keeps the rows behind it waiting, in order', async () => {
    const unrouted = `unrouted${run}.x`;
    const blocked = await dataSource.transaction((manager) => Outbox.add(manager, unrouted, { n: 1 }));
    await addWidget('behind');
    const relay = new OutboxRelay(dataSource, bus);

    await expect(relay.publishBatch()).resolves.toBe(0);
    const [first, second] = await rows();
    expect(first).toMatchObject({ id: blocked, publishedAt: null, attempts: 1 });
    expect(first.lastError).toEqual(expect.any(String));
    expect(second).toMatchObject({ publishedAt: null, attempts: 0 });

    await bus.ensureStream({ ...stream, subjects: [...stream.subjects, `unrouted${run}.>`] });
    await expect(relay.publishBatch()).resolves.toBe(2);
    expect((await rows()).map((row) => [row.attempts, row.lastError, row.publishedAt !== null])).toEqual([
      [2, null, true],
      [1, null, true],
    ]);
  });

  it('publishes right after kick(), and otherwise on the next interval', async () => {
    const events = await subscribe();
    const relay = new OutboxRelay(dataSource, bus, { intervalMs: 400 });
    relay.start();
    try {
      await sleep(50); // let the start-up pass find nothing
      await addWidget('kicked');
      const kickedAt = Date.now();
      relay.kick();
      await waitUntil(() => events.length === 1, 'the kicked event');
      expect(Date.now() - kickedAt).toBeLessThan(300);

      await addWidget('polled');
      await waitUntil(() => events.length === 2, 'the polled event', 2000);
    } finally {
      await relay.stop();
    }
    expect(events.map((e) => e.data)).toEqual([{ widget: 'kicked' }, { widget: 'polled' }]);
  });

  it('two relays running at once publish each row exactly once', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 30; i++) ids.add(await addWidget(`w${i}`));
    const events = await subscribe();
    const [busA, busB] = [new RecordingBus(bus, 5), new RecordingBus(bus, 5)];
    const relayA = new OutboxRelay(dataSource, busA, { batchSize: 4 });
    const relayB = new OutboxRelay(dataSource, busB, { batchSize: 4 });

    const drain = async (relay: OutboxRelay) => {
      while ((await relay.publishBatch()) > 0);
    };
    await Promise.all([drain(relayA), drain(relayB)]);

    const published = [...busA.published, ...busB.published];
    expect(busA.published.length).toBeGreaterThan(0);
    expect(busB.published.length).toBeGreaterThan(0);
    expect(published).toHaveLength(ids.size);
    expect(new Set(published.map((p) => p.msgId))).toEqual(ids);
    expect(published.every((p) => !p.ack.duplicate)).toBe(true);
    await waitUntil(() => events.length === ids.size, `${ids.size} events`);
    expect((await rows()).every((row) => row.publishedAt !== null && row.attempts === 1)).toBe(true);
  });

  it('ProcessedMessages applies a redelivered event once, and again after a rolled-back failure', async () => {
    await dataSource.getRepository(Widget).insert({ id: 'counter', count: 0 });
    const processed = new ProcessedMessages(dataSource);
    const handler = (event: EventEnvelope<{ by: number }>) =>
      processed.once('counter-service', event.id, async (manager) => {
        await manager.increment(Widget, { id: 'counter' }, 'count', event.data.by);
        if (event.data.by < 0) throw new Error('negative');
      });
    const event = (id: string, by: number): EventEnvelope<{ by: number }> => ({
      id,
      subject,
      data: { by },
      headers: {},
      deliveryCount: 1,
      seq: 1,
    });
    const count = async () => (await dataSource.getRepository(Widget).findOneByOrFail({ id: 'counter' })).count;

    await handler(event('m-1', 5));
    await handler({ ...event('m-1', 5), deliveryCount: 2 });
    await Promise.all([handler(event('m-2', 1)), handler(event('m-2', 1))]);
    expect(await count()).toBe(6);

    await expect(handler(event('m-3', -100))).rejects.toThrow('negative');
    expect(await count()).toBe(6);
    await expect(processed.once('counter-service', 'm-3', async () => undefined)).resolves.toBe(true);
    await expect(processed.once('other-service', 'm-1', async () => undefined)).resolves.toBe(true);
    await expect(processed.once('counter-service', 'm-1', async () => undefined)).resolves.toBe(false);
  });

  it('ProcessedMessages behind a real consumer: a handler failing after its write still has one effect', async () => {
    await dataSource.getRepository(Widget).insert({ id: 'tally', count: 0 });
    const processed = new ProcessedMessages(dataSource);
    let deliveries = 0;
    handles.push(
      await bus.consume(
        { stream: stream.name, durable: `tally-${run}`, filterSubjects: [subject], backoffMs: [50] },
        async (event) => {
          await processed.once(`tally-${run}`, event.id, async (manager) => {
            deliveries++;
            await manager.increment(Widget, { id: 'tally' }, 'count', 1);
            if (deliveries === 1) throw new Error('crashed after writing');
          });
        },
      ),
    );
    await bus.publish(subject, { n: 1 }, { msgId: `tally-${run}` });
    await waitUntil(() => deliveries === 2, 'the redelivery');
    await sleep(100);
    expect((await dataSource.getRepository(Widget).findOneByOrFail({ id: 'tally' })).count).toBe(1);
  });

  describe('crashes', () => {
    const fixture = join(__dirname, 'testing', 'crash-child.ts');

    /** Runs the fixture in its own `node`, as a separate service process would be. */
    function child(args: string[]) {
      const proc = spawn(process.execPath, ['-r', '@swc-node/register', fixture, ...args], {
        cwd: join(__dirname, '../../../..'),
        env: { ...process.env, NODE_OPTIONS: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = once(proc, 'exit').then(([code, signal]) => ({ code, signal, stderr }));
      return { proc, exited };
    }

    it('an event committed by a process killed before publishing is published once by a fresh relay', async () => {
      const { proc, exited } = child(['commit', schema, subject]);
      const line = await new Promise<string>((resolve, reject) => {
        let stdout = '';
        proc.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          if (stdout.includes('\n')) resolve(stdout.trim());
        });
        exited.then((r) => reject(new Error(`the child exited first: ${r.stderr}`)), reject);
      });
      expect(line).toMatch(/^committed [0-9a-f-]{36}$/);
      proc.kill('SIGKILL');
      await expect(exited).resolves.toMatchObject({ signal: 'SIGKILL' });
      const id = line.split(' ')[1];
      expect(await rows()).toEqual([expect.objectContaining({ id, publishedAt: null })]);

      const events = await subscribe();
      const recording = new RecordingBus(bus);
      await expect(new OutboxRelay(dataSource, recording).publishBatch()).resolves.toBe(1);
      await waitUntil(() => events.length === 1, 'the event');
      await sleep(300);
      expect(events.map((e) => [e.id, e.data])).toEqual([[id, { widget: 'crashed-widget' }]]);
      expect(recording.published.map((p) => p.ack.duplicate)).toEqual([false]);
    }, 15_000);

    it('a relay killed after publishing but before marking is caught by the msgId: one message', async () => {
      const id = await addWidget('published-then-crashed');
      const { exited } = child(['publish-then-die', schema, natsUrl]);
      const result = await exited;
      expect(result).toMatchObject({ signal: 'SIGKILL' });
      // The dead relay's transaction was rolled back: the row looks never published.
      expect(await rows()).toEqual([expect.objectContaining({ id, publishedAt: null, attempts: 0 })]);

      const events = await subscribe();
      const recording = new RecordingBus(bus);
      await expect(new OutboxRelay(dataSource, recording).publishBatch()).resolves.toBe(1);
      expect(recording.published.map((p) => [p.msgId, p.ack.duplicate])).toEqual([[id, true]]);
      await waitUntil(() => events.length === 1, 'the event');
      await sleep(300);
      expect(events.map((e) => e.id)).toEqual([id]);
      expect(await rows()).toEqual([expect.objectContaining({ id, attempts: 1 })]);
    }, 15_000);
  });
});
