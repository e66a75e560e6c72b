import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { memoryCounter, redisCounter, type AttemptCounter } from './attempt-counter.ts';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
  lazyConnect: true,
  maxRetriesPerRequest: 1,
});
const reachable = await redis.connect().then(
  () => true,
  () => false,
);
afterAll(() => redis.quit().catch(() => undefined));

const kinds: Array<[string, () => AttemptCounter, boolean]> = [
  ['memory', () => memoryCounter(5, 60_000), true],
  ['redis', () => redisCounter(redis, `test:${randomBytes(4).toString('hex')}:`, 5, 60_000), reachable],
];

describe.each(kinds)('%s attempt counter', (_name, make, available) => {
  it.skipIf(!available)('lets exactly the limit through, even when attempts arrive together', async () => {
    const c = make();
    const results = await Promise.all(Array.from({ length: 20 }, () => c.tryCount('k')));
    expect(results.filter((r) => r.waitMs === 0)).toHaveLength(5);
    expect(await c.retryAfterMs('k')).toBeGreaterThan(59_000);
    // Another key is untouched.
    expect((await c.tryCount('other')).waitMs).toBe(0);
  });

  it.skipIf(!available)('takes back an attempt and resets a key', async () => {
    const c = make();
    const counted = [];
    for (let i = 0; i < 5; i++) counted.push(await c.tryCount('k'));
    expect((await c.tryCount('k')).waitMs).toBeGreaterThan(0);
    await c.undo('k', counted[4].token);
    expect(await c.retryAfterMs('k')).toBe(0);
    expect((await c.tryCount('k')).waitMs).toBe(0);
    await c.reset('k');
    expect(await c.retryAfterMs('k')).toBe(0);
  });
});
