import type { ThrottlerStorage } from '@nestjs/throttler';

interface Counter {
  hits: number;
  windowEndsAt: number;
  blockedUntil: number;
}

/**
 * Rate-limit counters in this process's memory (one gateway: the embedded mode, or no REDIS_URL),
 * with the same fixed-window rules as RedisThrottlerStorage: the window starts at a client's first
 * hit, and a client past the limit is blocked for the block duration. O(1) per request: the
 * throttler's own in-memory storage keeps one timestamp per hit and filters them on every request
 * (O(hits in the window): 60,000 entries per client at 1,000 requests/s), which showed in the
 * gateway's profile under load. Expired counters are swept once a minute.
 */
export class MemoryThrottlerStorage implements ThrottlerStorage {
  private readonly counters = new Map<string, Counter>();
  private readonly sweeping: NodeJS.Timeout;

  constructor(sweepIntervalMs = 60_000) {
    this.sweeping = setInterval(() => this.sweep(Date.now()), sweepIntervalMs);
    this.sweeping.unref();
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string) {
    const now = Date.now();
    const id = `${throttlerName}:${key}`;
    let counter = this.counters.get(id);
    if (!counter || counter.windowEndsAt <= now) {
      counter = { hits: 0, windowEndsAt: now + ttl, blockedUntil: counter?.blockedUntil ?? 0 };
      this.counters.set(id, counter);
    }
    counter.hits += 1;
    if (counter.blockedUntil <= now && counter.hits > limit) counter.blockedUntil = now + (blockDuration || ttl);
    const isBlocked = counter.blockedUntil > now;
    return {
      totalHits: counter.hits,
      timeToExpire: Math.max(0, Math.ceil((counter.windowEndsAt - now) / 1000)),
      isBlocked,
      timeToBlockExpire: isBlocked ? Math.ceil((counter.blockedUntil - now) / 1000) : 0,
    };
  }

  /** Forgets the clients whose window and block are both over. */
  sweep(now: number): void {
    for (const [id, counter] of this.counters) {
      if (counter.windowEndsAt <= now && counter.blockedUntil <= now) this.counters.delete(id);
    }
  }

  get size(): number {
    return this.counters.size;
  }

  close(): void {
    clearInterval(this.sweeping);
  }
}
