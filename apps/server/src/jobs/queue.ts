import PgBoss from 'pg-boss';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { watchJobQueue } from '../lib/metrics.ts';

/**
 * Background work on pg-boss, a job queue kept in the database the product already has (PostgreSQL, or the embedded
 * one): a job is a row, taken by one instance at a time (SELECT … FOR UPDATE SKIP LOCKED), retried with backoff when
 * its handler throws, and still there after a restart or a crash. Job data never holds a secret: a mail job names
 * whom to mail, and the worker makes the single-use link when it sends.
 */
export interface JobPayloads {
  /** Mail a customer the link that verifies their email. */
  'mail.verify-email': { userId: number };
  /** Mail the reset link to this address if it belongs to an active account (nothing otherwise). */
  'mail.reset-password': { email: string };
  /** Hourly: forget sessions that expired more than a day ago. */
  'maintenance.sessions': Record<string, never>;
  /** Verify (if not yet) and apply one stored payment callback or capture; see modules/payments/callbacks.ts. */
  'payments.callback': { callbackId: number };
  /** Every five minutes: queue the callbacks a stopped server left unfinished. */
  'payments.sweep': Record<string, never>;
  /** Import one uploaded leads CSV file (the file stays in lead_imports); see modules/crm/lead-imports.ts. */
  'crm.import-leads': { importId: number };
}
export type JobName = keyof JobPayloads;
export type JobHandlers = { [N in JobName]: (data: JobPayloads[N]) => Promise<void> };

export const JOB_NAMES: readonly JobName[] = [
  'mail.verify-email',
  'mail.reset-password',
  'maintenance.sessions',
  'payments.callback',
  'payments.sweep',
  'crm.import-leads',
];

/** Cron schedules (UTC); pg-boss fires each tick once whichever instances are running. */
const SCHEDULES: Partial<Record<JobName, string>> = {
  'maintenance.sessions': '17 * * * *',
  'payments.sweep': '*/5 * * * *',
};

/**
 * Queues whose jobs retry longer than the default five times: a payment a provider confirmed must be credited even
 * when the provider's verification API or the database is out for hours: ten retries, each wait doubling from 30–60 s
 * (pg-boss adds up to as much again at random), 8½ to 17 hours in all.
 */
const RETRIES: Partial<Record<JobName, { retryLimit: number }>> = { 'payments.callback': { retryLimit: 10 } };

export interface Jobs {
  /**
   * Queues a job. Not inside a transaction: the queue writes on its own connection (the embedded database has one,
   * which the open transaction holds).
   */
  send<N extends JobName>(name: N, data: JobPayloads[N]): Promise<void>;
  /** Starts the workers and schedules; until then sent jobs wait in the database. */
  start(handlers: JobHandlers): Promise<void>;
  /** Resolves once no job is waiting or running (tests, shutdown); retries due later are not waited for. */
  idle(timeoutMs?: number): Promise<void>;
  /** Jobs waiting or running per queue (metrics). */
  depth(): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

export type QueueConnection =
  | { connectionString: string }
  | { db: { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> } };

export function createJobs(connection: QueueConnection, db: Db, opts: { fast?: boolean } = {}): Jobs {
  const boss = new PgBoss({
    ...('connectionString' in connection
      ? { connectionString: connection.connectionString, max: 4 }
      : { db: connection.db as PgBoss.Db }),
    schema: 'pgboss',
    // Mail and maintenance are small: retry a failure five times, 30 s, 60 s, 120 s… apart; give up on a stuck one after 5 min.
    retryLimit: 5,
    retryDelay: opts.fast ? 1 : 30,
    retryBackoff: true,
    expireInMinutes: 5,
    retentionDays: 7,
    deleteAfterDays: 7,
  });
  boss.on('error', (err) => console.error('job queue:', err.message));
  const workers = new Map<JobName, string>();
  let unwatch: (() => void) | null = null;
  let stopped = false;
  let started: Promise<unknown> | null = null;
  const ensureStarted = () =>
    (started ??= boss.start().then(async () => {
      for (const name of JOB_NAMES) if (!(await boss.getQueue(name))) await boss.createQueue(name);
    }));
  const waiting = async (): Promise<Array<{ name: string; n: number }>> =>
    (
      (await db.execute(sql`
      select name, count(*)::int as n from pgboss.job
       where state in ('created', 'active') or (state = 'retry' and start_after <= now())
       group by name`)) as unknown as { rows: Array<{ name: string; n: number }> }
    ).rows;

  return {
    async send(name, data) {
      await ensureStarted();
      await boss.send(name, data, RETRIES[name] ?? {});
      const worker = workers.get(name);
      if (worker) boss.notifyWorker(worker);
    },
    async start(handlers) {
      await ensureStarted();
      for (const name of JOB_NAMES) {
        const handler = handlers[name] as (data: unknown) => Promise<void>;
        const id = await boss.work(
          name,
          { pollingIntervalSeconds: opts.fast ? 0.5 : 2, batchSize: 1 },
          async (jobs) => {
            for (const job of jobs) await handler(job.data);
          },
        );
        workers.set(name, id);
      }
      for (const [name, cron] of Object.entries(SCHEDULES)) await boss.schedule(name, cron, {}, { tz: 'UTC' });
      unwatch = watchJobQueue(() => this.depth());
    },
    async idle(timeoutMs = 15_000) {
      if (!started) return;
      await started;
      const until = Date.now() + timeoutMs;
      for (;;) {
        if ((await waiting()).length === 0) return;
        if (Date.now() > until) throw new Error('background jobs still running');
        for (const id of workers.values()) boss.notifyWorker(id);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async depth() {
      const out: Record<string, number> = Object.fromEntries(JOB_NAMES.map((n) => [n, 0]));
      if (!started) return out;
      await started;
      for (const r of await waiting()) out[r.name] = r.n;
      return out;
    },
    async stop() {
      unwatch?.();
      if (!started || stopped) return;
      stopped = true;
      await started.catch(() => undefined);
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
}
