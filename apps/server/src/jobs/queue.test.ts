import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, DEMO, type TestApp } from '../../test/helpers.ts';
import { mailOutbox } from '../db/schema.ts';
import { createJobs, JOB_NAMES, type JobHandlers, type Jobs } from './queue.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** Handlers that only record what they were given (and fail as told), for queues of this test's own. */
function recording(seen: string[], failFirst = new Set<string>()): JobHandlers {
  const handlers = {} as Record<string, (data: never) => Promise<void>>;
  for (const name of JOB_NAMES) {
    handlers[name] = async (data: { email?: string }) => {
      const key = `${name}:${data.email ?? ''}`;
      seen.push(key);
      if (failFirst.delete(key)) throw new Error('fails once');
    };
  }
  return handlers as unknown as JobHandlers;
}

describe('background jobs', () => {
  it('mails a reset link through the queue: the request only queues, the worker mails', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email: DEMO.client } });
    expect(res.statusCode).toBe(200);
    await t.ctx.jobs.idle();
    const mails = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, DEMO.client));
    expect(mails.some((m) => m.subject.startsWith('Reset your'))).toBe(true);
    expect(await t.ctx.jobs.depth()).toMatchObject({ 'mail.reset-password': 0 });
    // The job table never holds the link: the job names the address, the worker makes the link.
    const { sql } = await import('drizzle-orm');
    const stored = (await t.ctx.db.execute(
      sql`select data::text as d from pgboss.job where name = 'mail.reset-password'`,
    )) as unknown as { rows: Array<{ d: string }> };
    expect(stored.rows.length).toBeGreaterThan(0);
    for (const r of stored.rows) expect(r.d).not.toContain('token');
  });

  it('retries a job whose handler fails, and runs it to completion once', async () => {
    const jobs = t.ctx.jobs;
    const seen: string[] = [];
    // A second queue client on the same database, with handlers of its own (the app's workers stay as they are).
    await jobs.stop();
    const mine = createJobs(t.database.queue, t.ctx.db, { fast: true });
    await mine.start(recording(seen, new Set(['mail.reset-password:flaky@example.test'])));
    await mine.send('mail.reset-password', { email: 'flaky@example.test' });
    await mine.send('mail.reset-password', { email: 'steady@example.test' });
    await expect
      .poll(() => seen.filter((k) => k.endsWith('flaky@example.test')).length, { timeout: 15_000, interval: 100 })
      .toBe(2);
    await mine.idle();
    expect(seen.filter((k) => k.endsWith('steady@example.test'))).toHaveLength(1);
    await mine.stop();
  });
});

describe('a job in hand', () => {
  it('is kept a lease ahead while it runs, so a crashed import is retried within a minute or two', {
    timeout: 40_000,
  }, async () => {
    await t.ctx.jobs.stop();
    const mine = createJobs(t.database.queue, t.ctx.db, { fast: true });
    let started: () => void = () => undefined;
    const inHand = new Promise<void>((r) => (started = r));
    let finish: () => void = () => undefined;
    const running = new Promise<void>((r) => (finish = r));
    const handlers = recording([]);
    handlers['crm.import-leads'] = async () => {
      started();
      await running;
    };
    await mine.start(handlers);
    await mine.send('crm.import-leads', { importId: 987654 });
    await inHand;
    const deadline = async () => {
      const { rows } = (await t.ctx.db.execute(sql`
        select id, extract(epoch from started_on + expire_in - now())::float8 as ahead,
               extract(epoch from started_on + expire_in)::float8 as at, extract(epoch from expire_in)::int as longest
          from pgboss.job where name = 'crm.import-leads' and state = 'active'`)) as unknown as {
        rows: Array<{ id: string; ahead: number; at: number; longest: number }>;
      };
      expect(rows).toHaveLength(1);
      return rows[0];
    };
    // Its instance dying now would have it retried half a minute on (then the maintenance pass and the retry delay),
    // not after the ten minutes it may run.
    const first = await deadline();
    expect(first.longest).toBe(600);
    expect(first.ahead).toBeGreaterThan(25);
    expect(first.ahead).toBeLessThanOrEqual(30);
    // While it runs the deadline moves on with it (a beat every 10 s).
    await expect
      .poll(async () => (await deadline()).at - first.at, { timeout: 15_000, interval: 250 })
      .toBeGreaterThan(5);
    // Once it is done the job is complete, its beats stopped.
    finish();
    await mine.idle();
    const { rows } = (await t.ctx.db.execute(
      sql`select state from pgboss.job where id = ${first.id}::uuid`,
    )) as unknown as { rows: Array<{ state: string }> };
    expect(rows).toEqual([{ state: 'completed' }]);
    await mine.stop();
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('background jobs on PostgreSQL with several instances', () => {
  const instances: Jobs[] = [];
  afterAll(async () => {
    for (const j of instances) await j.stop();
  });

  it('runs every job once across two instances, and a job queued before a restart after it', async () => {
    const connection = t.database.queue;
    // Queued while no worker runs (an instance that queued and then stopped).
    const before = createJobs(connection, t.ctx.db, { fast: true });
    for (let i = 0; i < 20; i++) await before.send('mail.reset-password', { email: `before${i}@example.test` });
    await before.stop();

    const seenA: string[] = [];
    const seenB: string[] = [];
    const a = createJobs(connection, t.ctx.db, { fast: true });
    const b = createJobs(connection, t.ctx.db, { fast: true });
    instances.push(a, b);
    await Promise.all([a.start(recording(seenA)), b.start(recording(seenB))]);
    await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        (i % 2 ? a : b).send('mail.reset-password', { email: `many${i}@example.test` }),
      ),
    );
    await a.idle(30_000);
    const all = [...seenA, ...seenB].filter((k) => /(many|before)\d+@/.test(k));
    expect(all).toHaveLength(220);
    expect(new Set(all).size).toBe(220);
    expect(seenA.length).toBeGreaterThan(0);
    expect(seenB.length).toBeGreaterThan(0);
  });
});
