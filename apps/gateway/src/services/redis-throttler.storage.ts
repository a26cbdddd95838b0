import type { ThrottlerStorage } from '@nestjs/throttler';
import type { Redis } from 'ioredis';

/**
 * Rate-limit counters in Redis, shared by every gateway replica: one atomic script per hit
 * (increment, set the window's expiry on first hit, block when over the limit). Written here
 * because the community Redis storage does not declare NestJS 12 support yet.
 */
const SCRIPT = `
local hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
local blocked_ttl = redis.call('PTTL', KEYS[2])
if blocked_ttl <= 0 and hits > tonumber(ARGV[2]) then
  redis.call('SET', KEYS[2], '1', 'PX', ARGV[3])
  blocked_ttl = tonumber(ARGV[3])
end
return { hits, ttl, blocked_ttl }`;

export class RedisThrottlerStorage implements ThrottlerStorage {
  constructor(private readonly redis: Redis) {}

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string) {
    const base = `medfolio:throttle:${throttlerName}:${key}`;
    const [hits, ttlLeft, blockedLeft] = (await this.redis.eval(SCRIPT, 2, `${base}:hits`, `${base}:blocked`, ttl, limit, blockDuration || ttl)) as [number, number, number];
    const isBlocked = blockedLeft > 0;
    return {
      totalHits: hits,
      timeToExpire: Math.max(0, Math.ceil(ttlLeft / 1000)),
      isBlocked,
      timeToBlockExpire: isBlocked ? Math.ceil(blockedLeft / 1000) : 0,
    };
  }
}
