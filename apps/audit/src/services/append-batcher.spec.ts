import { AppendBatcher } from './append-batcher';

/** The audit writer's batching: what arrives together is written together; a bad item fails alone. */
describe('AppendBatcher', () => {
  it('writes the items submitted together in one call, each caller getting its own result', async () => {
    const calls: number[][] = [];
    const batcher = new AppendBatcher<number, string>(async (items) => (calls.push(items), items.map((i) => `ok ${i}`)), 100);
    const results = await Promise.all([1, 2, 3, 4, 5].map((i) => batcher.submit(i)));
    expect(results).toEqual(['ok 1', 'ok 2', 'ok 3', 'ok 4', 'ok 5']);
    expect(calls).toEqual([[1, 2, 3, 4, 5]]);
  });

  it('caps a batch at maxBatch and gathers what arrives during a write into the next one', async () => {
    const calls: number[][] = [];
    let release!: () => void;
    const first = new Promise<void>((resolve) => (release = resolve));
    const batcher = new AppendBatcher<number, number>(async (items) => {
      calls.push(items);
      if (calls.length === 1) await first;
      return items;
    }, 3);
    const early = [1, 2, 3, 4].map((i) => batcher.submit(i));
    await new Promise((r) => setImmediate(r));
    const late = [5, 6].map((i) => batcher.submit(i));
    release();
    expect(await Promise.all([...early, ...late])).toEqual([1, 2, 3, 4, 5, 6]);
    expect(calls).toEqual([[1, 2, 3], [4, 5, 6]]);
  });

  it('retries a failed batch one item at a time, so only the bad item fails', async () => {
    const calls: number[][] = [];
    const batcher = new AppendBatcher<number, number>(async (items) => {
      calls.push(items);
      if (items.includes(13)) throw new Error('bad item');
      return items;
    }, 100);
    const settled = await Promise.allSettled([11, 12, 13, 14].map((i) => batcher.submit(i)));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(calls).toEqual([[11, 12, 13, 14], [11], [12], [13], [14]]);
  });
});
