import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { InProcessEventBus } from './in-process-event-bus';

const stream = { name: 'KEEP', subjects: ['keep.>'] };

const until = async (what: string, probe: () => boolean) => {
  for (let i = 0; i < 200 && !probe(); i++) await sleep(10);
  if (!probe()) throw new Error(`timed out waiting for ${what}`);
};

/** Housekeeping of the one-process event logs: old messages every consumer is done with go. */
describe('InProcessEventBus.prune', () => {
  let dataDir: string;
  const linesOf = async (file: string) => (await readFile(join(dataDir, file), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'medfolio-bus-retention-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  /** Three messages before the cut-off, two after. */
  async function publishAcrossCutoff(bus: InProcessEventBus): Promise<Date> {
    await bus.ensureStream(stream);
    for (const n of [1, 2, 3]) await bus.publish('keep.a', { n });
    await sleep(5);
    const cutoff = new Date();
    await sleep(5);
    for (const n of [4, 5]) await bus.publish('keep.a', { n });
    return cutoff;
  }

  it('drops the old messages every durable has acknowledged, keeps the newer ones, and the files and sequence numbers agree after a restart', async () => {
    const bus = new InProcessEventBus({ dataDir });
    const cutoff = await publishAcrossCutoff(bus);
    const seen: number[] = [];
    const handle = await bus.consume<{ n: number }>({ stream: stream.name, durable: 'reader', filterSubjects: ['keep.>'] }, async (e) => {
      seen.push(e.data.n);
    });
    await until('all five handled', () => seen.length === 5);
    await sleep(20); // the last ack is written after the handler returns
    await expect(bus.prune(cutoff)).resolves.toBe(3);
    await expect(bus.prune(cutoff)).resolves.toBe(0);
    expect((await linesOf('KEEP.messages.jsonl')).map((m) => m['seq'])).toEqual([4, 5]);
    expect(await linesOf('KEEP.acks.jsonl')).toEqual([{ durable: 'reader', seq: 5 }]);
    await handle.stop();
    await bus.close();

    const reopened = new InProcessEventBus({ dataDir });
    await reopened.ensureStream(stream);
    await expect(reopened.publish('keep.a', { n: 6 })).resolves.toMatchObject({ seq: 6, duplicate: false });
    const after: number[] = [];
    const again = await reopened.consume<{ n: number }>({ stream: stream.name, durable: 'reader', filterSubjects: ['keep.>'] }, async (e) => {
      after.push(e.data.n);
    });
    const late: number[] = [];
    const newcomer = await reopened.consume<{ n: number }>({ stream: stream.name, durable: 'newcomer', filterSubjects: ['keep.>'] }, async (e) => {
      late.push(e.data.n);
    });
    await until('the new message and the kept ones', () => after.length === 1 && late.length === 3);
    expect(after).toEqual([6]);
    expect(late).toEqual([4, 5, 6]);
    await Promise.all([again.stop(), newcomer.stop()]);
    await reopened.close();
  });

  it('keeps every message a durable has not acknowledged, however old, and always the newest one', async () => {
    const bus = new InProcessEventBus({ dataDir });
    const cutoff = await publishAcrossCutoff(bus);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const seen: number[] = [];
    const handle = await bus.consume<{ n: number }>({ stream: stream.name, durable: 'slow', filterSubjects: ['keep.>'] }, async (e) => {
      seen.push(e.data.n);
      if (e.data.n === 2) await held; // stuck on message 2: only message 1 is done
    });
    await until('message 2 in hand', () => seen.includes(2));
    await sleep(20);
    await expect(bus.prune(cutoff)).resolves.toBe(1);
    expect((await linesOf('KEEP.messages.jsonl')).map((m) => m['seq'])).toEqual([2, 3, 4, 5]);
    release();
    await until('all handled', () => seen.length === 5);
    await sleep(20);
    // Everything is old now and acknowledged: all but the newest go.
    await expect(bus.prune(new Date(Date.now() + 1000))).resolves.toBe(3);
    expect((await linesOf('KEEP.messages.jsonl')).map((m) => m['seq'])).toEqual([5]);
    await handle.stop();
    await bus.close();
  });
});
