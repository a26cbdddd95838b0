import { MemoryThrottlerStorage } from './memory-throttler.storage';

/** The same rules as RedisThrottlerStorage's int-spec, in memory, with O(1) work per hit. */
describe('MemoryThrottlerStorage', () => {
  let storage: MemoryThrottlerStorage;
  beforeEach(() => (storage = new MemoryThrottlerStorage()));
  afterEach(() => {
    storage.close();
    jest.useRealTimers();
  });

  it('counts hits in a window and blocks past the limit', async () => {
    expect(await storage.increment('c', 2000, 3, 1000, 'test')).toMatchObject({ totalHits: 1, isBlocked: false, timeToBlockExpire: 0 });
    await storage.increment('c', 2000, 3, 1000, 'test');
    expect(await storage.increment('c', 2000, 3, 1000, 'test')).toMatchObject({ totalHits: 3, isBlocked: false });
    const fourth = await storage.increment('c', 2000, 3, 1000, 'test');
    expect(fourth).toMatchObject({ totalHits: 4, isBlocked: true, timeToBlockExpire: 1, timeToExpire: 2 });
    // Other clients and other throttlers count apart.
    expect(await storage.increment('d', 2000, 3, 1000, 'test')).toMatchObject({ totalHits: 1, isBlocked: false });
    expect(await storage.increment('c', 2000, 3, 1000, 'other')).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('starts a new window when the old one is over, and lifts the block when it ends', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    for (let i = 0; i < 3; i += 1) await storage.increment('c', 2000, 2, 5000, 'test');
    jest.setSystemTime(1_000_000 + 2500);
    // A new window, but still blocked (5 s block).
    expect(await storage.increment('c', 2000, 2, 5000, 'test')).toMatchObject({ totalHits: 1, isBlocked: true, timeToBlockExpire: 3 });
    jest.setSystemTime(1_000_000 + 5001);
    expect(await storage.increment('c', 2000, 2, 5000, 'test')).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('sweeps clients whose window and block are over', async () => {
    await storage.increment('a', 1000, 5, 1000, 'test');
    await storage.increment('b', 60_000, 5, 1000, 'test');
    storage.sweep(Date.now() + 2000);
    expect(storage.size).toBe(1);
  });
});
