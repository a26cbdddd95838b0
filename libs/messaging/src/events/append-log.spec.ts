import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AppendLog } from './append-log';

/** The in-process bus's append-only file: concurrent appends are grouped (one write, one datasync). */
describe('AppendLog group commit', () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(path.join(tmpdir(), 'append-log-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('writes every concurrent append, in call order, each resolving once written', async () => {
    const log = new AppendLog(path.join(dir, 'stream.jsonl'));
    const first = log.append({ n: 0 }, true);
    const rest = Array.from({ length: 200 }, (_, i) => log.append({ n: i + 1 }, i % 2 === 0));
    await Promise.all([first, ...rest]);
    const lines = (await readFile(path.join(dir, 'stream.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l).n);
    expect(lines).toEqual(Array.from({ length: 201 }, (_, i) => i));
    await log.append({ n: 201 }, true);
    await log.close();
    expect(await new AppendLog(path.join(dir, 'stream.jsonl')).load()).toHaveLength(202);
  });
});
