import { and, desc, eq, gte, lte, sql } from 'drizzle-orm';
import { CATEGORIES } from '@platform/domain';
import type { AppContext } from '../../context.ts';
import { rolloverLanes, rolloverRuns } from '../../db/schema.ts';
import { tradingMemoryOf } from '../trading/trading-memory.ts';
import { LanePacer, type PacerStats } from './pacer.ts';
import { rolloverTimeOf, swapCalendarOf, swapDaysOf } from './calendar.ts';
import { addDays, cutoffOf, dueTradingDate } from './clock.ts';
import {
  DONE,
  FINISH_LANES,
  FOLD_LANES,
  NEXT_WALLET_BOUND,
  ROLLOVER_CLOSED_BATCH,
  ROLLOVER_OPEN_AGAIN_BATCH,
  ROLLOVER_OPEN_BATCH,
  START_LANES,
  type BatchRow,
} from './statements.ts';

/**
 * The daily rollover: at the rollover time every position open across it pays or earns its swap once, through the
 * ledger. The scheduled job (runDueRollovers) and the admins' "run now" (runRollover) call the same batches; the run's
 * row and the charges' key (position, trading date) make a restart, a second instance or a re-run charge nothing twice.
 */

type Ctx = Pick<AppContext, 'db' | 'risk' | 'dbKind'>;
type Run = typeof rolloverRuns.$inferSelect;
type Lane = typeof rolloverLanes.$inferSelect;

export interface RolloverOptions {
  /** The clock: when the run happens (default: now). */
  now?: Date;
  /** Positions per batch (one statement each). */
  batchSize?: number;
  /** Pause between batches, so the order path and the tick loop keep their share of the database and the process. */
  pauseMs?: number;
  /** The admin who ran it by hand; null for the schedule. */
  actorId?: number | null;
  /**
   * Lanes of wallets walked side by side, each on a connection of its own (default: 2 on PostgreSQL, 1 on the
   * embedded database, which runs one statement at a time). Taken when a run splits its open positions.
   */
  lanes?: number;
  /**
   * Whether the lanes give way to clients' orders (default true): while this instance's clients trade, as few lanes
   * walk as will end the run within its target (pacer.ts); false walks every lane throughout.
   */
  giveWay?: boolean;
  /** The time a run should end within, in ms (default 55 s). */
  targetMs?: number;
  /** Told the pacer's figures when the run ends (the benchmark prints them). */
  onPacer?: (stats: PacerStats) => void;
}

export interface RolloverResult {
  tradingDate: string;
  cutoff: Date;
  /** Positions charged or credited by this call (0 on a re-run). */
  charged: number;
  /** By every run of the date. */
  chargedTotal: number;
  finished: boolean;
}

export const DEFAULT_BATCH = 2000;
const DEFAULT_PAUSE_MS = 5;
const DEFAULT_LANES = 2;
/** The rollover of a million positions within a minute, with a margin. */
const DEFAULT_TARGET_MS = 55_000;
/** How far back the schedule catches up rollovers missed while no instance ran. */
const CATCH_UP_DAYS = 7;

async function readRun(ctx: Ctx, tradingDate: string): Promise<Run> {
  const [run] = await ctx.db.select().from(rolloverRuns).where(eq(rolloverRuns.tradingDate, tradingDate));
  return run;
}

/** What every batch of a run shares. */
interface Walk {
  tradingDate: string;
  batch: number;
  /** Gives each lane its turn and pause between batches. */
  pacer: LanePacer;
  /** The open positions' batch: the one that passes over positions charged already when the date ran before. */
  openBatch: string;
  /** $3 to $6 of the batch statement: days per category, the rollover's zone and time, the acting admin. */
  terms: [number[], string, string, number | null];
}

/**
 * Runs (or goes on with) a trading date's rollover until it is finished. The run's row must exist (startRun or the
 * schedule's scheduleRun made it); its cutoff decides which positions are charged. Open positions first, in lanes of
 * wallets side by side, then the positions closed since the cutoff.
 */
async function drive(ctx: Ctx, tradingDate: string, opts: RolloverOptions, ranBefore = false): Promise<RolloverResult> {
  const [{ time, timezone }, calendar] = await Promise.all([rolloverTimeOf(ctx.db), swapCalendarOf(ctx.db)]);
  const lanes = Math.max(1, Math.trunc(opts.lanes ?? (ctx.dbKind === 'postgres' ? DEFAULT_LANES : 1)));
  const pacer = new LanePacer(tradingMemoryOf(ctx.db).orderPath, {
    lanes,
    pauseMs: opts.pauseMs ?? DEFAULT_PAUSE_MS,
    giveWay: opts.giveWay ?? true,
    // The positions the risk engine follows: what a run from the start has to charge, near enough for a pace (a run
    // resumed after a restart has less left, so it looks later than it is and keeps its lanes: it errs towards ending).
    expected: ctx.risk.trackedPositions(),
    targetMs: opts.targetMs ?? DEFAULT_TARGET_MS,
  });
  const walk: Walk = {
    tradingDate,
    batch: Math.max(200, opts.batchSize ?? DEFAULT_BATCH),
    pacer,
    openBatch: ranBefore ? ROLLOVER_OPEN_AGAIN_BATCH : ROLLOVER_OPEN_BATCH,
    terms: [CATEGORIES.map((c) => swapDaysOf(calendar, c, tradingDate)), timezone, time, opts.actorId ?? null],
  };
  let charged = 0;
  for (;;) {
    // The progress as committed: the batch statement writes only while it still holds.
    const run = await readRun(ctx, tradingDate);
    if (!run || run.finishedAt) break;
    if (run.lastBalanceId < DONE) {
      charged += await walkOpen(ctx, walk, run, lanes);
      continue;
    }
    const [row] = await batchOf(ctx, ROLLOVER_CLOSED_BATCH, [
      tradingDate,
      walk.batch,
      ...walk.terms,
      run.lastOrderId,
      null,
      run.cutoff,
    ]);
    charged += row.charged;
    await afterBatch(ctx, walk, row, 0);
  }
  opts.onPacer?.(pacer.stats);
  const run = await readRun(ctx, tradingDate);
  return {
    tradingDate,
    cutoff: run.cutoff,
    charged,
    chargedTotal: run.charged,
    finished: run.finishedAt !== null,
  };
}

/**
 * The open positions: the run's lanes (made now when it has none) walked side by side, then folded into the run once
 * every lane reached its end. Gives the positions this call charged.
 */
async function walkOpen(ctx: Ctx, walk: Walk, run: Run, lanes: number): Promise<number> {
  const cuts = Array.from({ length: lanes - 1 }, (_, i) => (i + 1) / lanes);
  await rowsOf(ctx, START_LANES, [walk.tradingDate, `{${cuts.join(',')}}`]);
  const rows = await ctx.db.select().from(rolloverLanes).where(eq(rolloverLanes.tradingDate, walk.tradingDate));
  // Every lane stops before this returns, a failed one too (its error is thrown once the others stopped).
  const ends = await Promise.allSettled(
    rows.map(async (lane) => {
      walk.pacer.join(lane.lane);
      try {
        return await walkLane(ctx, walk, run.cutoff, lane);
      } finally {
        walk.pacer.leave(lane.lane);
      }
    }),
  );
  const failed = ends.find((e) => e.status === 'rejected');
  if (failed) throw failed.reason;
  await rowsOf(ctx, FINISH_LANES, [walk.tradingDate]);
  return ends.reduce((n, e) => n + (e.status === 'fulfilled' ? e.value : 0), 0);
}

/** One lane's batches until it reaches its end, or it is gone or the run changed (the caller reads the run again). */
async function walkLane(ctx: Ctx, walk: Walk, cutoff: Date, lane: Lane): Promise<number> {
  let progress = lane.lastBalanceId;
  let charged = 0;
  while (progress < lane.endBalanceId) {
    const next = (await rowsOf<{ balance_id: number }>(ctx, NEXT_WALLET_BOUND, [progress, walk.batch]))[0];
    const upto = Math.min(next?.balance_id ?? DONE, lane.endBalanceId);
    const [row] = await batchOf(ctx, walk.openBatch, [
      walk.tradingDate,
      walk.batch,
      ...walk.terms,
      progress,
      upto,
      cutoff,
      lane.lane,
    ]);
    if (row.running === 0) {
      // Another instance took the batch, or the lane or the run changed: go on from the lane as committed.
      const [now] = await ctx.db
        .select()
        .from(rolloverLanes)
        .where(and(eq(rolloverLanes.tradingDate, walk.tradingDate), eq(rolloverLanes.lane, lane.lane)));
      if (!now || now.lastBalanceId === progress) break;
      progress = now.lastBalanceId;
      continue;
    }
    charged += row.charged;
    walk.pacer.charged(row.charged);
    progress = upto;
    await afterBatch(ctx, walk, row, lane.lane);
  }
  return charged;
}

/**
 * After a batch: the risk engine learns its wallets' balances, then the lane's turn, which lets orders and ticks
 * through (the pause, and a wait while the pacer has stopped this lane for a slow order path).
 */
async function afterBatch(ctx: Ctx, walk: Walk, row: BatchRow, lane: number): Promise<void> {
  if (row.wallets.length > 0) await tellEngine(ctx, row.wallets);
  await walk.pacer.turn(lane);
}

/**
 * One batch. On PostgreSQL without JIT compilation: the statement's many parts make its estimated cost pass JIT's
 * threshold, and compiling it took seconds for a batch that runs in a fifth of one.
 */
function batchOf(ctx: Ctx, text: string, values: unknown[]): Promise<BatchRow[]> {
  if (ctx.dbKind !== 'postgres') return rowsOf<BatchRow>(ctx, text, values);
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL jit = off`);
    return rowsOf<BatchRow>({ ...ctx, db: tx as unknown as Ctx['db'] }, text, values);
  });
}

/** A list of whole numbers goes as one array literal ('{1,3}'): the query builder would spread an array into many. */
const param = (v: unknown) => (Array.isArray(v) ? `{${v.map((n) => Math.trunc(Number(n))).join(',')}}` : v);

/**
 * Runs a statement with $n placeholders unnamed (planned for its values each time), on either database, and gives its
 * rows.
 */
export async function rowsOf<T>(ctx: Ctx, text: string, values: unknown[]): Promise<T[]> {
  const parts = text.split(/\$(\d+)/);
  const query = sql.join(
    parts.map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql`${param(values[Number(part) - 1])}`)),
    sql.raw(''),
  );
  const res = (await ctx.db.execute(query)) as unknown as { rows?: T[] } | T[];
  return Array.isArray(res) ? res : (res.rows ?? []);
}

/**
 * Tells the risk engine the new balances of the wallets a batch charged. Each wallet's report is made inside its
 * queue, after the orders placed or closed on it before (as deposits are), from one read of all of them made once
 * every queue has let it in, so a close that committed after the batch can never be overtaken by an older balance.
 */
async function tellEngine(ctx: Ctx, walletIds: number[]): Promise<void> {
  const queue = tradingMemoryOf(ctx.db).walletQueue;
  let arrived = 0;
  let letIn = (): void => undefined;
  const allIn = new Promise<void>((resolve) => {
    letIn = resolve;
  });
  const read = allIn.then(async () => {
    const rows = await rowsOf<{ id: number; balance: string }>(ctx, READ_BALANCES, [walletIds]);
    return new Map(rows.map((r) => [Number(r.id), r.balance]));
  });
  const changes: Array<{ walletId: number; balance: string }> = [];
  let done = 0;
  await Promise.all(
    walletIds.map((id) =>
      queue.run(id, async () => {
        if (++arrived === walletIds.length) letIn();
        const balance = (await read).get(id);
        if (balance !== undefined) changes.push({ walletId: id, balance });
        // The last wallet to resume reports them all while every queue is still held.
        if (++done === walletIds.length) ctx.risk.balancesChanged(changes);
      }),
    ),
  );
}

const READ_BALANCES = 'SELECT id, balance FROM balances WHERE id = ANY($1::int[]) ORDER BY id';

/**
 * POST /admin/rollover/run: the trading date's rollover now. Every position open now (and not yet charged for that
 * date) is charged: a date whose rollover ran already charges only positions it has not charged, so running it again
 * at once charges nothing. The run's cutoff moves to now if it was earlier.
 */
export async function runRolloverNow(
  ctx: Ctx,
  tradingDate: string,
  opts: RolloverOptions = {},
): Promise<{ before: Run | null; result: RolloverResult }> {
  const now = opts.now ?? new Date();
  const before = (await readRun(ctx, tradingDate)) ?? null;
  // The run's row first, then its lanes: a lane's batch never waits for the run's row, so the two cannot deadlock.
  await ctx.db.transaction(async (tx) => {
    await tx
      .insert(rolloverRuns)
      .values({ tradingDate, cutoff: now, startedBy: opts.actorId ?? null })
      .onConflictDoUpdate({
        target: rolloverRuns.tradingDate,
        set: {
          cutoff: sql`greatest(${rolloverRuns.cutoff}, excluded.cutoff)`,
          lastBalanceId: 0,
          lastOrderId: 0,
          finishedAt: null,
          startedBy: opts.actorId ?? null,
        },
      });
    await rowsOf({ ...ctx, db: tx as unknown as Ctx['db'] }, FOLD_LANES, [tradingDate]);
  });
  return { before, result: await drive(ctx, tradingDate, opts, before !== null) };
}

/**
 * The scheduled job (every minute): runs the latest trading date whose rollover time has come, unless it finished,
 * and any earlier one of the last week a stopped platform missed since the last finished run; each at its own cutoff
 * (the rollover time of that date). A run cut short by a restart goes on where it stopped.
 */
export async function runDueRollovers(ctx: Ctx, opts: RolloverOptions = {}): Promise<RolloverResult[]> {
  const now = opts.now ?? new Date();
  const { time, timezone } = await rolloverTimeOf(ctx.db);
  const due = dueTradingDate(now, time, timezone);
  const since = addDays(due, -CATCH_UP_DAYS);
  const recent = await ctx.db
    .select()
    .from(rolloverRuns)
    .where(and(gte(rolloverRuns.tradingDate, since), lte(rolloverRuns.tradingDate, due)))
    .orderBy(desc(rolloverRuns.tradingDate));
  // Catch up from the schedule's own last run: a date an admin ran by hand is skipped below, not a starting point.
  const lastDone = recent.find((r) => r.finishedAt !== null && r.startedBy === null)?.tradingDate;
  const todo = new Set(recent.filter((r) => r.finishedAt === null).map((r) => r.tradingDate));
  if (!lastDone) todo.add(due);
  else for (let d = addDays(lastDone, 1); d <= due; d = addDays(d, 1)) todo.add(d);
  const results: RolloverResult[] = [];
  for (const date of [...todo].sort()) {
    if (recent.some((r) => r.tradingDate === date && r.finishedAt !== null)) continue;
    await ctx.db
      .insert(rolloverRuns)
      .values({ tradingDate: date, cutoff: cutoffOf(date, time, timezone) })
      .onConflictDoNothing();
    results.push(await drive(ctx, date, { ...opts, actorId: null }));
  }
  return results;
}
