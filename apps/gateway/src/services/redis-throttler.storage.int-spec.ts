import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { RedisThrottlerStorage } from './redis-throttler.storage';

const redisUrl = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

describe('RedisThrottlerStorage on real Redis', () => {
  let redis: Redis;
  let storage: RedisThrottlerStorage;

  beforeAll(() => {
    redis = new Redis(redisUrl);
    storage = new RedisThrottlerStorage(redis);
  });

  afterAll(async () => {
    await redis.quit();
  });

  it('counts hits in a window and blocks past the limit', async () => {
    const key = `client-${randomUUID()}`;
    const first = await storage.increment(key, 2000, 3, 1000, 'test');
    expect(first).toMatchObject({ totalHits: 1, isBlocked: false, timeToBlockExpire: 0 });
    await storage.increment(key, 2000, 3, 1000, 'test');
    expect(await storage.increment(key, 2000, 3, 1000, 'test')).toMatchObject({ totalHits: 3, isBlocked: false });
    const fourth = await storage.increment(key, 2000, 3, 1000, 'test');
    expect(fourth).toMatchObject({ totalHits: 4, isBlocked: true, timeToBlockExpire: 1 });
    expect(fourth.timeToExpire).toBeGreaterThanOrEqual(1);
  });

  it('shares counters between two gateway replicas', async () => {
    const other = new Redis(redisUrl);
    try {
      const key = `client-${randomUUID()}`;
      await storage.increment(key, 5000, 10, 5000, 'test');
      const seen = await new RedisThrottlerStorage(other).increment(key, 5000, 10, 5000, 'test');
      expect(seen.totalHits).toBe(2);
    } finally {
      await other.quit();
    }
  });

  it('starts a new window after the old one expires', async () => {
    const key = `client-${randomUUID()}`;
    await storage.increment(key, 300, 1, 300, 'test');
    expect((await storage.increment(key, 300, 1, 300, 'test')).isBlocked).toBe(true);
    await new Promise((r) => setTimeout(r, 700));
    expect(await storage.increment(key, 300, 1, 300, 'test')).toMatchObject({ totalHits: 1, isBlocked: false });
  });
});
