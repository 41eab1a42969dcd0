import { createRedisClient } from './redis-client.ts';

/**
 * Small shared counters for per-key limits and one-time markers (replay caches): in Redis when
 * `REDIS_URL` is set (shared by every server process, like the per-IP limiter of `rate-limit.ts`),
 * in this process's memory otherwise.
 */
export interface WindowStore {
  /** Count one hit of `key` in its fixed window of `windowMs`; @returns the hits so far and the ms left in the window. */
  hit(key: string, windowMs: number): Promise<{ count: number; msLeft: number }>;
  /** Mark `key` for `ttlMs`; @returns false when it was already marked (a replay). */
  claimOnce(key: string, ttlMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/** The store for `redisUrl` (memory when undefined); keys get `prefix`. */
export function createWindowStore(redisUrl: string | undefined, prefix: string): WindowStore {
  return redisUrl ? redisStore(redisUrl, prefix) : memoryStore(prefix);
}

function redisStore(url: string, prefix: string): WindowStore {
  const redis = createRedisClient(url);
  return {
    async hit(key, windowMs) {
      const name = prefix + key;
      const [[, count], [, ttl]] = (await redis.multi().incr(name).pttl(name).exec()) as [
        [Error | null, number],
        [Error | null, number],
      ];
      if (ttl < 0) await redis.pexpire(name, windowMs);
      return { count, msLeft: ttl < 0 ? windowMs : ttl };
    },
    async claimOnce(key, ttlMs) {
      return (await redis.set(prefix + key, '1', 'PX', ttlMs, 'NX')) === 'OK';
    },
    async close() {
      await redis.quit().catch(() => undefined);
    },
  };
}

/**
 * Counters in this process's memory. Windows measure real elapsed time, as the Redis store's TTLs
 * do, so they read the monotonic clock (`performance.now()`), not the app's clock: a limit is so
 * many requests per real minute whatever date the app's clock reads.
 */
function memoryStore(prefix: string): WindowStore {
  const windows = new Map<string, { count: number; endsAt: number }>();
  const marks = new Map<string, number>();
  let lastSweepAt = 0;
  const sweep = (now: number) => {
    if (now - lastSweepAt < 10_000) return;
    lastSweepAt = now;
    for (const [key, endsAt] of marks) if (endsAt <= now) marks.delete(key);
    for (const [key, window] of windows) if (window.endsAt <= now) windows.delete(key);
  };
  return {
    async hit(key, windowMs) {
      const now = performance.now();
      sweep(now);
      const name = prefix + key;
      let window = windows.get(name);
      if (!window || window.endsAt <= now) {
        window = { count: 0, endsAt: now + windowMs };
        windows.set(name, window);
      }
      window.count += 1;
      return { count: window.count, msLeft: window.endsAt - now };
    },
    async claimOnce(key, ttlMs) {
      const now = performance.now();
      sweep(now);
      const name = prefix + key;
      const endsAt = marks.get(name);
      if (endsAt !== undefined && endsAt > now) return false;
      marks.set(name, now + ttlMs);
      return true;
    },
    async close() {
      windows.clear();
      marks.clear();
    },
  };
}
