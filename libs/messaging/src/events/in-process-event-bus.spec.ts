import { mkdtemp, readFile, rm, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeEventBusContract } from './event-bus.contract';
import { InProcessEventBus } from './in-process-event-bus';

describeEventBusContract(
  'InProcessEventBus (in memory)',
  async () => {
    const bus = new InProcessEventBus();
    return { bus, deadLetterPrefix: 'dlq', dispose: () => bus.close() };
  },
  { survivesRestart: false },
);

describeEventBusContract(
  'InProcessEventBus (with a data directory)',
  async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'medfolio-bus-'));
    const options = { dataDir, deadLetterPrefix: 'dead' };
    const buses = [new InProcessEventBus(options)];
    return {
      bus: buses[0],
      deadLetterPrefix: options.deadLetterPrefix,
      restart: async () => {
        await buses[buses.length - 1].close();
        buses.push(new InProcessEventBus(options));
        return buses[buses.length - 1];
      },
      dispose: async () => {
        await Promise.all(buses.map((bus) => bus.close()));
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  },
  { survivesRestart: true },
);

describe('InProcessEventBus persistence', () => {
  let dataDir: string;
  const stream = { name: 'PERSIST', subjects: ['persist.>'] };

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'medfolio-bus-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('writes messages as JSON lines, never the payload anywhere but its own line', async () => {
    const bus = new InProcessEventBus({ dataDir });
    await bus.ensureStream(stream);
    await bus.publish('persist.a', { secret: 'diagnosis' }, { msgId: 'id-1', headers: { 'x-correlation-id': 'c' } });
    await bus.close();
    const lines = (await readFile(join(dataDir, 'PERSIST.messages.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ seq: 1, subject: 'persist.a', id: 'id-1', payload: '{"secret":"diagnosis"}' }),
    ]);
  });

  it('ignores a torn last line left by a crash and keeps appending after it', async () => {
    const bus = new InProcessEventBus({ dataDir });
    await bus.ensureStream(stream);
    await bus.publish('persist.a', { n: 1 });
    await bus.close();
    await appendFile(join(dataDir, 'PERSIST.messages.jsonl'), '{"seq":2,"subj');

    const reopened = new InProcessEventBus({ dataDir });
    await reopened.ensureStream(stream);
    await expect(reopened.publish('persist.a', { n: 2 })).resolves.toMatchObject({ seq: 2, duplicate: false });
    await reopened.close();

    const third = new InProcessEventBus({ dataDir });
    await third.ensureStream(stream);
    const seen: number[] = [];
    const handle = await third.consume<{ n: number }>(
      { stream: stream.name, durable: 'reader', filterSubjects: ['persist.>'] },
      async (event) => {
        seen.push(event.data.n);
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    await handle.stop();
    await third.close();
    expect(seen).toEqual([1, 2]);
  });

  it('refuses a second handler on the same durable in one process', async () => {
    const bus = new InProcessEventBus();
    await bus.ensureStream(stream);
    const spec = { stream: stream.name, durable: 'only-one', filterSubjects: ['persist.>'] };
    await bus.consume(spec, async () => undefined);
    await expect(bus.consume(spec, async () => undefined)).rejects.toThrow(/already has a handler/);
    await bus.close();
  });
});
