import pg from 'pg';

/**
 * Which instance runs the market feeds and acts on the risk engine's verdicts. One instance alone always leads; with
 * several, the one holding a PostgreSQL advisory lock does. The lock belongs to a database session, so it is released
 * the moment the leader's process dies (its connection closes) and another instance takes it on its next try.
 */
export interface Leadership {
  readonly isLeader: boolean;
  /** Called with true when this instance becomes the leader, false when it stops being one. */
  onChange(listener: (leader: boolean) => void | Promise<void>): void;
  /** Resolves once the first try for the lock is over (the start banner says whether this instance leads). */
  ready(): Promise<void>;
  /** Tries to take the lead now rather than at the next poll: the leader just said it released it. */
  claim(): void;
  /** Releases the lead at once (listeners hear false) and stops trying: the first step of a graceful stop. */
  close(): Promise<void>;
}

export const soleLeader = (): Leadership => ({
  isLeader: true,
  onChange() {},
  ready: async () => undefined,
  claim() {},
  close: async () => undefined,
});

/** The advisory lock's key: one per deployment (its database). */
const LOCK_KEY = 727_001;

export function advisoryLeadership(
  databaseUrl: string,
  pollMs = 1000,
  log: (msg: string) => void = console.log,
): Leadership {
  let leader = false;
  let client: pg.Client | null = null;
  let closed = false;
  const listeners: Array<(leader: boolean) => void | Promise<void>> = [];
  let timer: NodeJS.Timeout | null = null;

  const set = async (next: boolean) => {
    if (next === leader) return;
    leader = next;
    log(
      next ? 'cluster: this instance leads (market feeds and risk engine)' : 'cluster: this instance no longer leads',
    );
    for (const l of listeners) await l(next);
  };

  const drop = async () => {
    const c = client;
    client = null;
    await c?.end().catch(() => undefined);
  };

  const attempt = async () => {
    if (closed) return;
    try {
      if (!client) {
        const c = new pg.Client({ connectionString: databaseUrl, keepAlive: true, application_name: 'leader-lock' });
        // A lost connection means a lost lock: stop leading at once and try again.
        c.on('error', () => void drop().then(() => set(false)));
        await c.connect();
        if (closed) {
          await c.end().catch(() => undefined);
          return;
        }
        client = c;
      }
      if (!leader) {
        const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [
          LOCK_KEY,
        ]);
        if (rows[0]?.locked) {
          // Closed while asking: the lock goes with the connection.
          if (closed) await drop();
          else await set(true);
        }
      } else {
        // Still connected, so still holding the lock.
        await client.query('select 1');
      }
    } catch {
      await drop();
      await set(false);
    }
  };

  // One attempt at a time; a claim made during one runs another right after it.
  let running: Promise<void> | null = null;
  let again = false;
  const run = (): void => {
    if (closed) return;
    if (running !== null) {
      again = true;
      return;
    }
    if (timer) clearTimeout(timer);
    timer = null;
    running = attempt().finally(() => {
      running = null;
      if (closed) return;
      if (again) {
        again = false;
        run();
      } else timer = setTimeout(run, pollMs);
    });
  };
  run();
  const first = running as Promise<void> | null;

  return {
    get isLeader() {
      return leader;
    },
    onChange(listener) {
      listeners.push(listener);
      if (leader) void listener(true);
    },
    ready: async () => void (await first),
    claim: run,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      // An attempt under way sees `closed` and lets go of what it got.
      await drop();
      await set(false);
    },
  };
}
