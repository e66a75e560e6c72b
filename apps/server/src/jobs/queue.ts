import PgBoss from 'pg-boss';
import { sql } from 'drizzle-orm';
import type { Db, QueueConnection } from '../db/client.ts';
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
  /** Mail a partner's invited sub-partner the link that sets their password (modules/partners/invite.ts). */
  'mail.partner-invite': { userId: number; inviterId: number };
  /** Hourly: forget sessions that expired more than a day ago. */
  'maintenance.sessions': Record<string, never>;
  /** Verify (if not yet) and apply one stored payment callback or capture; see modules/payments/callbacks.ts. */
  'payments.callback': { callbackId: number };
  /** Every five minutes: queue the callbacks a stopped server left unfinished. */
  'payments.sweep': Record<string, never>;
  /** Import one uploaded leads CSV file (the file stays in lead_imports); see modules/crm/lead-imports.ts. */
  'crm.import-leads': { importId: number };
  /** Every minute: the rollover of the latest trading date whose rollover time has come, unless done (swaps). */
  'rollover.due': Record<string, never>;
  /** Remind the owner of a call-back or task at its time (sent delayed to it); see modules/crm/tasks.ts. */
  'crm.task-due': { taskId: number };
  /** Every minute: remind of due tasks whose delayed job never came (queued while the queue was out). */
  'crm.tasks-sweep': Record<string, never>;
  /** Hourly: store today's checkpoint of the records' chain heads unless stored; see modules/records/checkpoints.ts. */
  'records.checkpoint': Record<string, never>;
  /** Mail a client that their wallet reached its margin-call level; see modules/risk/margin-calls.ts. */
  'mail.margin-call': {
    walletId: number;
    userId: number;
    calledAt: string;
    marginLevel: string;
    callLevel: number;
    stopoutLevel: number;
  };
  /** Accrue the partner commissions of these closed deals (idempotent); see modules/partners/accrual.ts. */
  'partners.accrue': { dealIds: number[] };
  /** Every minute: deals whose accrual job was lost, and first deposits' CPA; see modules/partners/sweep.ts. */
  'partners.sweep': Record<string, never>;
  /** Mail a client that their price alert fired (the facts of that firing); see modules/alerts/fire.ts. */
  'mail.price-alert': {
    alertId: number;
    userId: number;
    instrument: string;
    side: 'bid' | 'ask';
    condition: 'above' | 'below';
    price: string;
    firedPrice: string;
    firedAt: string;
  };
}
export type JobName = keyof JobPayloads;
/** A handler gets the job's data and its id (stable across retries: a key for work that must happen once). */
export type JobHandlers = { [N in JobName]: (data: JobPayloads[N], job: { id: string }) => Promise<void> };

export const JOB_NAMES: readonly JobName[] = [
  'mail.verify-email',
  'mail.reset-password',
  'mail.partner-invite',
  'maintenance.sessions',
  'payments.callback',
  'payments.sweep',
  'crm.import-leads',
  'mail.price-alert',
  'mail.margin-call',
  'records.checkpoint',
  'rollover.due',
  'crm.task-due',
  'crm.tasks-sweep',
  'partners.accrue',
  'partners.sweep',
];

/** Cron schedules (UTC); pg-boss fires each tick once whichever instances are running. */
const SCHEDULES: Partial<Record<JobName, string>> = {
  'maintenance.sessions': '17 * * * *',
  'payments.sweep': '*/5 * * * *',
  'records.checkpoint': '3 * * * *',
  'rollover.due': '* * * * *',
  'crm.tasks-sweep': '* * * * *',
  'partners.sweep': '* * * * *',
};

/** How a queue's jobs are retried and when a job in hand is given up as lost (its instance died, or it hangs). */
interface Policy {
  /**
   * The longest a job may run (pg-boss's expiry, which it also enforces on the handler): a little over its longest
   * honest run (mail is bounded by the mailer's SMTP timeouts). A hanging job is failed and retried after this.
   */
  expireInSeconds: number;
  /**
   * While its handler runs, a job's deadline is kept this far ahead (keepAlive below), so a job in hand when its
   * instance dies is retried after this, plus up to the queue's maintenance pass (MAINTENANCE_S) and the first retry
   * delay. Long enough to outlast a busy event loop: the beats come every third of it.
   */
  leaseSeconds: number;
  retryLimit: number;
  /** The first retry's wait in seconds; each further one doubles (pg-boss adds up to as much again at random). */
  retryDelay: number;
  /** Workers per instance: each takes the next job as soon as it finishes one, while any are waiting. */
  workers: number;
}

/**
 * Mail: a crashed send is retried within 15 + 10 + 5–10 s (and a worker's 2 s poll), under 40 s; eight retries from
 * 5 s cover an SMTP outage of 20–40 minutes. A payment a provider confirmed must be credited even when the provider's
 * verification API or the database is out for hours: twelve retries from 10 s, 11 to 22 hours in all, and a crashed
 * one is retried within 15 + 10 + 10–20 s. A leads import reads a whole file in one transaction (a crash leaves
 * nothing of it): it may run ten minutes, and a crashed one runs again from its stored file within 30 + 10 + 30–60 s.
 * Scheduled chores run again on their next tick anyway.
 */
const POLICIES: Record<JobName, Policy> = {
  'mail.verify-email': { expireInSeconds: 30, leaseSeconds: 15, retryLimit: 8, retryDelay: 5, workers: 2 },
  'mail.reset-password': { expireInSeconds: 30, leaseSeconds: 15, retryLimit: 8, retryDelay: 5, workers: 2 },
  'mail.partner-invite': { expireInSeconds: 30, leaseSeconds: 15, retryLimit: 8, retryDelay: 5, workers: 1 },
  'maintenance.sessions': { expireInSeconds: 120, leaseSeconds: 15, retryLimit: 2, retryDelay: 30, workers: 1 },
  'payments.callback': { expireInSeconds: 30, leaseSeconds: 15, retryLimit: 12, retryDelay: 10, workers: 2 },
  'payments.sweep': { expireInSeconds: 60, leaseSeconds: 15, retryLimit: 2, retryDelay: 30, workers: 1 },
  'crm.import-leads': { expireInSeconds: 600, leaseSeconds: 30, retryLimit: 5, retryDelay: 30, workers: 1 },
  'mail.price-alert': { expireInSeconds: 30, leaseSeconds: 15, retryLimit: 8, retryDelay: 5, workers: 2 },
  'mail.margin-call': { expireInSeconds: 30, leaseSeconds: 15, retryLimit: 8, retryDelay: 5, workers: 1 },
  // Reads one head per wallet: seconds for a million wallets. The day's row is the key, so a retry stores nothing twice.
  'records.checkpoint': { expireInSeconds: 600, leaseSeconds: 30, retryLimit: 3, retryDelay: 60, workers: 1 },
  // A rollover of a million positions takes about a minute; a crashed one goes on where it stopped on its next tick.
  'rollover.due': { expireInSeconds: 1800, leaseSeconds: 30, retryLimit: 2, retryDelay: 30, workers: 1 },
  // A reminder is one row update and one notification: retried quickly, since it is late once it fails.
  'crm.task-due': { expireInSeconds: 30, leaseSeconds: 15, retryLimit: 8, retryDelay: 2, workers: 2 },
  'crm.tasks-sweep': { expireInSeconds: 60, leaseSeconds: 15, retryLimit: 1, retryDelay: 30, workers: 1 },
  // Commissions are money owed: retried for hours (a missing rate, a database outage); each step credits once. Two
  // workers keep up with a busy order flow (a batch locks its wallets in id order, so two never deadlock).
  'partners.accrue': { expireInSeconds: 120, leaseSeconds: 15, retryLimit: 12, retryDelay: 10, workers: 2 },
  'partners.sweep': { expireInSeconds: 300, leaseSeconds: 30, retryLimit: 1, retryDelay: 30, workers: 1 },
};

/** Seconds between the queue's maintenance passes, which retry the jobs of dead instances (pg-boss's default: 120). */
const MAINTENANCE_S = 10;

const sendOptions = (name: JobName, fast: boolean) => {
  const { expireInSeconds, retryLimit, retryDelay } = POLICIES[name];
  return { expireInSeconds, retryLimit, retryDelay: fast ? 1 : retryDelay, retryBackoff: true };
};

export interface Jobs {
  /**
   * Queues a job. Not inside a transaction: the queue writes on its own connection (the embedded database has one,
   * which the open transaction holds).
   */
  send<N extends JobName>(name: N, data: JobPayloads[N], opts?: { startAfter?: Date }): Promise<void>;
  /** Starts the workers and schedules; until then sent jobs wait in the database. */
  start(handlers: JobHandlers): Promise<void>;
  /** Resolves once no job is waiting or running (tests, shutdown); retries and delayed jobs due later are not waited for. */
  idle(timeoutMs?: number): Promise<void>;
  /** Jobs waiting or running per queue (metrics). */
  depth(): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

/** A send after the queue stopped (the process is going down): the job is not queued. */
export class QueueStoppedError extends Error {
  constructor(name: string) {
    super(`the job queue is stopped: ${name} not queued`);
  }
}

export function createJobs(connection: QueueConnection, db: Db, opts: { fast?: boolean } = {}): Jobs {
  const boss = new PgBoss({
    ...('connectionString' in connection
      ? { connectionString: connection.connectionString, max: 4 }
      : { db: connection.db as PgBoss.Db }),
    schema: 'pgboss',
    // Defaults for anything sent without its queue's policy (sendOptions below sets each job's own).
    retryLimit: 5,
    retryDelay: opts.fast ? 1 : 30,
    retryBackoff: true,
    expireInMinutes: 5,
    maintenanceIntervalSeconds: MAINTENANCE_S,
    retentionDays: 7,
    deleteAfterDays: 7,
  });
  boss.on('error', (err) => console.error('job queue:', err.message));
  const workers = new Map<JobName, string[]>();
  const beating = new Set<NodeJS.Timeout>();
  /**
   * Runs a job's handler with its deadline kept `leaseSeconds` ahead (pg-boss 10 has no heartbeat). pg-boss counts a
   * job lost once started_on + expire_in has passed; moving started_on leaves expire_in, the longest run, as it is
   * for the handler's own limit and for the job's retries. The beats stop with the handler, at the longest run, or
   * when the queue stops; a job whose beats stopped unfinished (its instance died) expires a lease later.
   */
  const keepAlive = async (name: JobName, id: string, run: () => Promise<void>) => {
    const { leaseSeconds, expireInSeconds } = POLICIES[name];
    const beat = () =>
      db
        .execute(sql`
        update pgboss.job set started_on = now() - expire_in + ${leaseSeconds}::int * interval '1 second'
         where name = ${name} and id = ${id}::uuid and state = 'active'`)
        .catch((err: Error) => console.error(`job queue: keep-alive of ${name}:`, err.message));
    const until = Date.now() + expireInSeconds * 1000;
    await beat();
    const timer = setInterval(
      () => {
        if (Date.now() < until) void beat();
        else clearInterval(timer);
      },
      (leaseSeconds * 1000) / 3,
    );
    timer.unref();
    beating.add(timer);
    try {
      await run();
    } finally {
      clearInterval(timer);
      beating.delete(timer);
    }
  };
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
       where state = 'active' or (state in ('created', 'retry') and start_after <= now())
       group by name`)) as unknown as { rows: Array<{ name: string; n: number }> }
    ).rows;

  return {
    async send(name, data, when) {
      // After stop, pg-boss's own error ("Cannot destructure property 'rows'") would say nothing of the cause.
      if (stopped) throw new QueueStoppedError(name);
      await ensureStarted();
      // A delayed job (startAfter) waits in the database like any other: a restart or another instance runs it.
      await boss.send(name, data, { ...sendOptions(name, opts.fast === true), ...when });
      const worker = workers.get(name)?.[0];
      if (worker) boss.notifyWorker(worker);
    },
    async start(handlers) {
      await ensureStarted();
      for (const name of JOB_NAMES) {
        const handler = handlers[name] as (data: unknown, job: { id: string }) => Promise<void>;
        const ids: string[] = [];
        for (let i = 0; i < POLICIES[name].workers; i++) {
          // pg-boss sleeps its polling interval after every fetch; a worker that found a job asks again at once, so a
          // backlog drains as fast as the handlers run, and an idle queue is polled every interval.
          let id = '';
          id = await boss.work(name, { pollingIntervalSeconds: opts.fast ? 0.5 : 2, batchSize: 1 }, async (jobs) => {
            try {
              for (const job of jobs) await keepAlive(name, job.id, () => handler(job.data, { id: job.id }));
            } finally {
              if (jobs.length > 0 && id) boss.notifyWorker(id);
            }
          });
          ids.push(id);
        }
        workers.set(name, ids);
      }
      for (const [name, cron] of Object.entries(SCHEDULES) as Array<[JobName, string]>)
        await boss.schedule(name, cron, {}, { tz: 'UTC', ...sendOptions(name, opts.fast === true) });
      unwatch = watchJobQueue(() => this.depth());
    },
    async idle(timeoutMs = 15_000) {
      if (!started) return;
      await started;
      const until = Date.now() + timeoutMs;
      for (;;) {
        if ((await waiting()).length === 0) return;
        if (Date.now() > until) throw new Error('background jobs still running');
        // One worker per queue is enough to ask: each asks again at once while it finds jobs.
        for (const [id] of workers.values()) if (id) boss.notifyWorker(id);
        await new Promise((r) => setTimeout(r, 50));
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
      if (stopped) return;
      stopped = true;
      if (!started) return;
      await started.catch(() => undefined);
      // pg-boss fails a job still running after this, so it is retried elsewhere after its retry delay; its beats end.
      await boss.stop({ graceful: true, wait: true, timeout: 2_000 });
      for (const timer of beating) clearInterval(timer);
      beating.clear();
    },
  };
}
