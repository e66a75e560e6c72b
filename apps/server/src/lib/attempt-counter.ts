import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { AttemptLimiter } from './attempt-limiter.ts';

/**
 * Failures per key (an IP, an account) in a sliding window, blocked once the limit is reached: in this process's
 * memory for a sole instance, in Redis when several share the counts.
 */
export interface AttemptCounter {
  /** Counts one attempt now unless the key is already blocked; `waitMs` > 0 means blocked (nothing counted). */
  tryCount(key: string): Promise<{ waitMs: number; token: string }>;
  /** Milliseconds until the key is no longer blocked (0 when it is not). */
  retryAfterMs(key: string): Promise<number>;
  /** Takes back one counted attempt (the one `token` names). */
  undo(key: string, token: string): Promise<void>;
  reset(key: string): Promise<void>;
}

export function memoryCounter(limit: number, windowMs: number): AttemptCounter {
  const limiter = new AttemptLimiter(limit, windowMs);
  return {
    async tryCount(key) {
      const waitMs = limiter.retryAfterMs(key);
      if (waitMs === 0) limiter.fail(key);
      return { waitMs, token: '' };
    },
    retryAfterMs: async (key) => limiter.retryAfterMs(key),
    async undo(key) {
      limiter.undo(key);
    },
    async reset(key) {
      limiter.reset(key);
    },
  };
}

/**
 * One sorted set per key, its members the attempts, scored by time. Counting adds the attempt first and then looks
 * at the set in the same MULTI, so concurrent attempts on several instances see each other: at most `limit` pass.
 */
export function redisCounter(redis: Redis, prefix: string, limit: number, windowMs: number): AttemptCounter {
  const k = (key: string) => `${prefix}${key}`;
  /** Wait from the sorted scores (oldest first): blocked while `limit` attempts are in the window. */
  const waitOf = (scores: number[], now: number) =>
    scores.length < limit ? 0 : Math.max(1, scores[scores.length - limit] + windowMs - now);
  const scoresOf = (flat: string[]) => flat.filter((_, i) => i % 2 === 1).map(Number);
  return {
    async tryCount(key) {
      const now = Date.now();
      const token = `${now}:${randomBytes(4).toString('hex')}`;
      const res = await redis
        .multi()
        .zremrangebyscore(k(key), '-inf', String(now - windowMs))
        .zrange(k(key), '0', '-1', 'WITHSCORES')
        .zadd(k(key), String(now), token)
        .pexpire(k(key), windowMs)
        .exec();
      const before = scoresOf((res?.[1]?.[1] as string[] | undefined) ?? []);
      const waitMs = waitOf(before, now);
      if (waitMs > 0) await redis.zrem(k(key), token);
      return { waitMs, token };
    },
    async retryAfterMs(key) {
      const now = Date.now();
      const flat = await redis.zrangebyscore(k(key), String(now - windowMs), '+inf', 'WITHSCORES');
      return waitOf(scoresOf(flat), now);
    },
    async undo(key, token) {
      await redis.zrem(k(key), token);
    },
    async reset(key) {
      await redis.del(k(key));
    },
  };
}
