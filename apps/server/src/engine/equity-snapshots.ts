import { sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import type { RiskEngine } from './risk-engine.ts';

type Ctx = Pick<AppContext, 'db' | 'cluster'>;

/** How often the leader writes what moved (after the engine's own 5 s sweep has recomputed every P/L). */
export const SNAPSHOT_MS = 5_000;
/** Wallets one statement writes: its row locks are held for one short statement. */
export const SNAPSHOT_BATCH = 500;
/**
 * Wallets one pass writes at most; the rest wait for the next pass. On the shared 2-core benchmark machine a row costs
 * the database 85–275 µs depending on the load (bench/backoffice.ts), so a pass costs it at most 0.2–0.6 s every 5 s.
 */
export const SNAPSHOT_MAX_ROWS = 2_000;
/**
 * A wallet's stored P/L is rewritten when it moved by a cent and by this share of the wallet's equity: what a sort
 * or a range filter can tell apart, not every tick's noise.
 */
export const SNAPSHOT_RELATIVE = 0.001;
/** Wallets that moved by this share of their equity are written before the others when a pass is capped. */
export const SNAPSHOT_FAR = 0.01;

/** What a pass did, for tests, metrics and the benchmark. */
export interface SnapshotPass {
  /** Wallets whose P/L had moved enough. */
  changed: number;
  /** Wallets written (fewer when a row was locked by an order in flight, or past SNAPSHOT_MAX_ROWS). */
  written: number;
  statements: number;
  ms: number;
}

const round2 = (v: number) => Math.round(v * 100) / 100;

/**
 * Wallets' floating P/L in the database (balances.floating_pl), so the back-office lists can sort and filter
 * 100,000 customers by equity (balance + floating_pl, an indexed expression) without asking the engine per row.
 * docs/decisions.md "Customer 360" has the reasoning.
 *
 * - Only the leader writes (the one instance whose engine acts); followers keep nothing to write.
 * - Never on the tick path: a timer every SNAPSHOT_MS reads the engine's wallet columns (a pass over typed arrays),
 *   collects the wallets whose P/L moved by a cent and by SNAPSHOT_RELATIVE of their equity since last written, and
 *   writes them in statements of SNAPSHOT_BATCH (one UPDATE … FROM (VALUES …)), at most SNAPSHOT_MAX_ROWS a pass:
 *   those that moved by SNAPSHOT_FAR first, the others from where the last pass stopped. A wallet whose last position
 *   closed has P/L 0 and is written back to 0.
 * - A row an order holds locked is skipped (FOR UPDATE SKIP LOCKED), never waited for, and retried next pass.
 * - On becoming leader it reads the wallets the database holds a non-zero P/L for: the ones the engine no longer
 *   follows (closed while another instance led, or while nobody did) are written back to 0.
 */
export class EquitySnapshots {
  /** What each engine wallet slot was last written as (NaN: not known to be written). */
  private written = new Float64Array(1024).fill(Number.NaN);
  /** Where the next pass starts its walk over the slots (fair when a pass stops at SNAPSHOT_MAX_ROWS). */
  private cursor = 0;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();
  private led = false;
  /** Failures of a pass (logged by the caller); the next pass tries again. */
  onError: (err: unknown) => void = (err) => console.error('equity snapshots: a pass failed', err);

  constructor(
    private readonly engine: RiskEngine,
    private readonly ctx: () => Ctx,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.running = this.running.then(() => this.pass().catch(this.onError));
    }, SNAPSHOT_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One pass now (the timer's work; tests and the benchmark call it). Nothing unless this instance leads. */
  async pass(): Promise<SnapshotPass> {
    const t0 = performance.now();
    const none = { changed: 0, written: 0, statements: 0, ms: 0 };
    const { cluster } = this.ctx();
    if (!cluster.leadership.isLeader) {
      // Whatever this instance wrote while it led may have been rewritten since: start from scratch next time.
      this.led = false;
      return none;
    }
    // On becoming leader: what the database holds a P/L for, to check against the engine below.
    let stale: Set<number> | null = null;
    if (!this.led) {
      this.led = true;
      this.written.fill(Number.NaN);
      stale = await this.readStale();
    }
    const w = this.engine.wallets;
    if (this.written.length < w.n) {
      const grown = new Float64Array(Math.max(w.n, this.written.length * 2)).fill(Number.NaN);
      grown.set(this.written);
      this.written = grown;
    }
    // Wallets that moved, the far-moved first (SNAPSHOT_FAR of their equity, or never written) so a capped pass
    // corrects the order of the list where it is most wrong; among equals from where the last pass stopped.
    const far: number[] = [];
    const near: number[] = [];
    const start = this.cursor;
    for (let k = 0; k < w.n; k++) {
      const slot = (start + k) % w.n;
      const before = this.written[slot];
      if (before === Number.POSITIVE_INFINITY) continue;
      const pl = round2(w.hot[slot * 2]);
      const moved = Math.abs(pl - before);
      const equity = Math.abs(w.balance[slot] + pl);
      // NaN (never written) counts as moved far.
      if (moved < 0.01 || moved < SNAPSHOT_RELATIVE * equity) continue;
      (moved >= SNAPSHOT_FAR * equity || before !== before ? far : near).push(slot);
    }
    const changed = far.length + near.length;
    const slots = [...far, ...near].slice(0, SNAPSHOT_MAX_ROWS);
    if (changed > slots.length) this.cursor = (slots[slots.length - 1] + 1) % w.n;
    const ids = slots.map((slot) => w.id[slot]);
    const values = slots.map((slot) => round2(w.hot[slot * 2]));
    // Wallets the database holds a P/L for that the engine does not follow: back to 0, once.
    if (stale)
      for (const id of stale)
        if (this.engine.walletState(id) === null) {
          ids.push(id);
          values.push(0);
        }
    let written = 0;
    let statements = 0;
    for (let i = 0; i < ids.length; i += SNAPSHOT_BATCH) {
      const reached = await this.write(ids.slice(i, i + SNAPSHOT_BATCH), values.slice(i, i + SNAPSHOT_BATCH));
      statements++;
      for (let j = i; j < Math.min(i + SNAPSHOT_BATCH, ids.length); j++) {
        const main = reached.get(ids[j]);
        if (main === undefined || j >= slots.length) continue;
        if (main) written++;
        // A wallet that is not a main real one (a demo wallet, another currency) is never written: no list reads it.
        this.written[slots[j]] = main ? values[j] : Number.POSITIVE_INFINITY;
      }
    }
    return { changed, written, statements, ms: performance.now() - t0 };
  }

  /**
   * One statement: the given wallets' P/L, skipping rows an order holds. Answers the wallets it reached: written (the
   * main real wallets) or not to be written (the others; the lists read main wallets only).
   */
  private async write(ids: number[], values: number[]): Promise<Map<number, boolean>> {
    const rows = sql.join(
      ids.map((id, i) => sql`(${id}::int, ${values[i].toFixed(2)}::numeric)`),
      sql`, `,
    );
    const res = (await this.ctx().db.execute(sql`
      with v(id, pl) as (values ${rows}),
           locked as (select b.id, b.main, v.pl from balances b join v on v.id = b.id order by b.id for update of b skip locked),
           written as (update balances b set floating_pl = locked.pl from locked where b.id = locked.id and locked.main returning b.id)
      select id, main from locked`)) as unknown as { rows: Array<{ id: number; main: boolean }> };
    return new Map(res.rows.map((r) => [Number(r.id), r.main === true]));
  }

  private async readStale(): Promise<Set<number>> {
    const res = (await this.ctx().db.execute(sql`select id from balances where floating_pl <> 0`)) as unknown as {
      rows: Array<{ id: number }>;
    };
    return new Set(res.rows.map((r) => Number(r.id)));
  }
}
