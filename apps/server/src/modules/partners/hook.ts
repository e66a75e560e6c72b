import { type Jobs, QueueStoppedError } from '../../jobs/queue.ts';

/**
 * The order path's only contact with partners: a closed deal's id goes into this process's buffer (no database
 * work, no await), and a timer sends the buffer as one queued job (`partners.accrue`) a moment later. The job is
 * idempotent; a deal whose id was lost with its process (a crash before the send) is found by the catch-up sweep.
 * Buffers are per database (the key every trading memory uses); the queue is connected when the jobs start.
 */

/** How long ids gather before they are sent, and the most one job carries. */
const FLUSH_MS = 1000;
const BATCH = 1000;

interface DealBuffer {
  jobs: Jobs | null;
  ids: number[];
  timer: NodeJS.Timeout | null;
  sending: Promise<void>;
}

const buffers = new WeakMap<object, DealBuffer>();

function bufferOf(db: object): DealBuffer {
  let b = buffers.get(db);
  if (!b) buffers.set(db, (b = { jobs: null, ids: [], timer: null, sending: Promise.resolve() }));
  return b;
}

/** Deals closed on this database are queued on `jobs` from now on (jobs/handlers.ts). */
export function connectPartnerHook(db: object, jobs: Jobs): void {
  bufferOf(db).jobs = jobs;
}

/** A deal closed (in full, in part, by a stop or by staff): its commissions accrue shortly after. */
export function partnerDealClosed(db: object, dealId: number): void {
  const b = bufferOf(db);
  if (!b.jobs) return;
  b.ids.push(dealId);
  if (b.timer) return;
  b.timer = setTimeout(() => void flushPartnerDeals(db), FLUSH_MS);
  b.timer.unref();
}

/** Sends the buffered deal ids now (the timer, tests, a stop). */
export async function flushPartnerDeals(db: object): Promise<void> {
  const b = bufferOf(db);
  if (b.timer) clearTimeout(b.timer);
  b.timer = null;
  const ids = b.ids.splice(0);
  const jobs = b.jobs;
  if (!jobs || ids.length === 0) return b.sending;
  b.sending = b.sending.then(async () => {
    for (let i = 0; i < ids.length; i += BATCH)
      await jobs.send('partners.accrue', { dealIds: ids.slice(i, i + BATCH) }).catch((err: Error) => {
        if (err instanceof QueueStoppedError) {
          // Said once: every later deal of this process is left to the sweep too.
          if (b.jobs === jobs)
            console.error('partners: the job queue stopped; the catch-up sweep accrues what follows');
          b.jobs = null;
        } else console.error('partners: accrual not queued (the sweep will find it):', err.message);
      });
  });
  await b.sending;
}
