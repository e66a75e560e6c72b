import { describe, expect, it } from 'vitest';
import { KeyedQueue } from './keyed-queue.ts';

const tick = () => new Promise((r) => setTimeout(r, 1));

describe('KeyedQueue', () => {
  it('runs tasks of one key one at a time in arrival order, other keys alongside, and forgets idle keys', async () => {
    const q = new KeyedQueue<number>();
    const log: string[] = [];
    let running = 0;
    let most = 0;
    const task = (key: number, name: string) =>
      q.run(key, async () => {
        running++;
        most = Math.max(most, running);
        log.push(`${name} start`);
        await tick();
        log.push(`${name} end`);
        running--;
        return name;
      });
    const results = await Promise.all([task(1, 'a'), task(1, 'b'), task(2, 'c'), task(1, 'd')]);
    expect(results).toEqual(['a', 'b', 'c', 'd']);
    const ofKey1 = log.filter((l) => !l.startsWith('c'));
    expect(ofKey1).toEqual(['a start', 'a end', 'b start', 'b end', 'd start', 'd end']);
    expect(most).toBe(2); // key 2 ran beside key 1
    await tick();
    expect(q.size).toBe(0);
  });

  it('goes on with the next task after one fails, and passes the failure to its caller only', async () => {
    const q = new KeyedQueue<string>();
    const failed = q.run('w', async () => {
      throw new Error('refused');
    });
    const next = q.run('w', async () => 'placed');
    await expect(failed).rejects.toThrow('refused');
    await expect(next).resolves.toBe('placed');
  });
});
