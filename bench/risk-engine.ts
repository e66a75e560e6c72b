/**
 * Risk engine speed: builds 100k and 1M open positions over 60 instruments and 100k wallets, then times one
 * instrument's tick (median and p99 over many ticks, on a random instrument and on the busiest one) and the full
 * sweep. Beside each, a bare loop doing the same P/L arithmetic over the engine's own typed arrays in the same run,
 * so the figure shows what the engine's bookkeeping (wallet sums, levels, stop-out checks) costs above the floor.
 *
 *   node --import tsx bench/risk-engine.ts        (or: npm run risk -w bench)
 *
 * Targets on the 2-core reference machine: 1M positions swept in ≤ 10 ms; one instrument's tick at 100k positions
 * in ≤ 0.5 ms.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { RiskAction, RiskBlockView, RiskEngine } from '../apps/server/src/engine/risk-engine.ts';
import { CONVERSIONS, DIGITS, INSTRUMENTS, WALLETS, build, rng, round, type Book } from './risk-book.ts';

const SIZES = [100_000, 1_000_000];
/** Ticks timed per size: on a random instrument, on the busiest one; full sweeps timed. */
const TICKS = { 100000: [20_000, 5_000, 100], 1000000: [5_000, 1_000, 30] } as const;

type Columns = ReturnType<RiskEngine['columns']>;

/**
 * The floor: the same P/L arithmetic as the engine over the same block columns, into scratch columns (writing the
 * engine's own would corrupt its incremental sums), with nothing else: no wallet sums, no levels, no stop-out.
 */
function bareBlock(b: RiskBlockView, close: number, inverseConversion: Float64Array, out: Float64Array): number {
  const { count, breakEven, amount } = b;
  const f = b.sign * inverseConversion[b.convSlot];
  let sum = 0;
  for (let k = 0; k < count; k++) {
    const pl = (close - breakEven[k]) * amount[k] * f;
    out[k] = pl;
    sum += pl;
  }
  return sum;
}

function bareTick(c: Columns, scratch: Float64Array[], instrument: number, bid: number, ask: number): number {
  let sum = 0;
  for (let b = 0; b < c.blocks.length; b++) {
    const blk = c.blocks[b];
    if (blk.instrument === instrument) sum += bareBlock(blk, blk.sign > 0 ? bid : ask, c.inverseConversion, scratch[b]);
  }
  return sum;
}

function bareSweep(c: Columns, scratch: Float64Array[], bids: Float64Array, asks: Float64Array): number {
  let sum = 0;
  for (let b = 0; b < c.blocks.length; b++) {
    const blk = c.blocks[b];
    if (blk.count > 0)
      sum += bareBlock(
        blk,
        blk.sign > 0 ? bids[blk.instrument] : asks[blk.instrument],
        c.inverseConversion,
        scratch[b],
      );
  }
  return sum;
}

interface Row {
  label: string;
  positions: string;
  engine: Stats;
  bare: Stats;
  target?: number;
}

interface Stats {
  median: number;
  p99: number;
  /** Mean CPU time of this process per operation: unlike wall time, it does not count time spent descheduled. */
  cpu: number;
}

interface Samples {
  wall: Float64Array;
  cpuTotal: number;
}

function stats(s: Samples, cpuOverhead: number): Stats {
  const sorted = Float64Array.from(s.wall).sort();
  return {
    median: sorted[Math.floor(sorted.length / 2)],
    p99: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))],
    cpu: Math.max(0, s.cpuTotal / s.wall.length - cpuOverhead),
  };
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * Times `count` rounds (after `warmup` untimed ones) of: prepare, engine operation, bare operation, each timed alone
 * in wall time and in CPU time. The CPU figure matters on a shared machine: another process holding the core
 * inflates wall times (the p99 first) but not the CPU time spent here.
 */
function measure(count: number, warmup: number, prepare: () => void, engineOp: () => void, bareOp: () => void) {
  const engine: Samples = { wall: new Float64Array(count), cpuTotal: 0 };
  const bare: Samples = { wall: new Float64Array(count), cpuTotal: 0 };
  for (let r = -warmup; r < count; r++) {
    prepare();
    const c0 = cpuMs();
    const t0 = performance.now();
    engineOp();
    const t1 = performance.now();
    const c1 = cpuMs();
    const t2 = performance.now();
    bareOp();
    const t3 = performance.now();
    const c2 = cpuMs();
    if (r >= 0) {
      engine.wall[r] = t1 - t0;
      bare.wall[r] = t3 - t2;
      engine.cpuTotal += c1 - c0;
      bare.cpuTotal += c2 - c1;
    }
  }
  return { engine, bare };
}

/** CPU time the measuring itself adds per operation (two clock reads and a CPU-time read), to subtract. */
function measureOverhead(): number {
  const { engine } = measure(
    20_000,
    1_000,
    () => {},
    () => {},
    () => {},
  );
  return engine.cpuTotal / engine.wall.length;
}

/** The engine's columns and scratch columns of the same shape for the bare loop, refreshed after churn. */
function bareView(engine: RiskEngine) {
  let cols = engine.columns();
  let scratch = cols.blocks.map((b) => new Float64Array(b.pl.length));
  return {
    get cols() {
      return cols;
    },
    get scratch() {
      return scratch;
    },
    refresh() {
      cols = engine.columns();
      if (cols.blocks.some((b, i) => i >= scratch.length || scratch[i].length < b.count)) {
        scratch = cols.blocks.map((b) => new Float64Array(b.pl.length));
      }
    },
  };
}

/**
 * Ticks a random walk (±1 basis point) on the chosen instruments; engine and bare loop run on the same quotes.
 * Positions the engine asks to close are replaced by new ones between ticks, so the book keeps its size and its
 * levels stay spread around the price.
 */
function timeTicks(book: Book, count: number, choose: () => number, overhead: number) {
  const { engine, bids, asks } = book;
  const view = bareView(engine);
  const walk = rng(count);
  let pending: readonly RiskAction[] = [];
  let actions = 0;
  let ticksWithActions = 0;
  let sink = 0;
  let i = 0;
  const m = measure(
    count,
    Math.min(2_000, count),
    () => {
      if (pending.length > 0) {
        actions += pending.length;
        ticksWithActions++;
        book.churn(pending);
        view.refresh();
      }
      i = choose();
      const d = DIGITS[i % DIGITS.length];
      bids[i] = round(bids[i] * (1 + (walk() - 0.5) * 2e-4), d);
      asks[i] = round(bids[i] * 1.0002, d);
    },
    () => {
      pending = engine.tick(i, bids[i], asks[i]);
    },
    () => {
      sink += bareTick(view.cols, view.scratch, i, bids[i], asks[i]);
    },
  );
  book.churn(pending);
  if (Number.isNaN(sink)) console.log('(checksum NaN)');
  return { engine: stats(m.engine, overhead), bare: stats(m.bare, overhead), actions, ticksWithActions };
}

/** Full sweeps, each over a market that moved since the last one (every instrument one random-walk step). */
function timeSweeps(book: Book, count: number, overhead: number) {
  const { engine, bids, asks } = book;
  const view = bareView(engine);
  const walk = rng(count);
  let pending: readonly RiskAction[] = [];
  let actions = 0;
  let sink = 0;
  const m = measure(
    count,
    3,
    () => {
      actions += pending.length;
      book.churn(pending);
      view.refresh();
      for (let i = 0; i < INSTRUMENTS; i++) {
        const d = DIGITS[i % DIGITS.length];
        bids[i] = round(bids[i] * (1 + (walk() - 0.5) * 2e-4), d);
        asks[i] = round(bids[i] * 1.0002, d);
      }
    },
    () => {
      pending = engine.sweep(bids, asks);
    },
    () => {
      sink += bareSweep(view.cols, view.scratch, bids, asks);
    },
  );
  book.churn(pending);
  if (Number.isNaN(sink)) console.log('(checksum NaN)');
  return { engine: stats(m.engine, overhead), bare: stats(m.bare, overhead), actions };
}

const fmt = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`);
const thousands = (n: number) => n.toLocaleString('en-US');
const pct = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)} %`;

console.log(`Risk engine benchmark: Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'})`);
console.log(`${INSTRUMENTS} instruments (skewed), ${thousands(WALLETS)} wallets, ${CONVERSIONS} conversion rates`);
console.log(
  `load average at start: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}\n`,
);
const overhead = measureOverhead();

const rows: Row[] = [];
for (const size of SIZES) {
  const book = build(size);
  const mem = process.memoryUsage();
  const busiest = book.perInstrument.indexOf(Math.max(...book.perInstrument));
  const mean = Math.round(size / INSTRUMENTS);
  console.log(
    `${thousands(size)} positions: built in ${(book.buildMs / 1000).toFixed(2)} s; busiest instrument ` +
      `${thousands(book.perInstrument[busiest])} positions; rss ${Math.round(mem.rss / 2 ** 20)} MB ` +
      `(array buffers ${Math.round(mem.arrayBuffers / 2 ** 20)} MB)`,
  );
  const pick = rng(7);
  const [ticks, busyTicks, sweepCount] = TICKS[size as keyof typeof TICKS];
  const random = timeTicks(book, ticks, () => Math.floor(pick() * INSTRUMENTS), overhead);
  const busy = timeTicks(book, busyTicks, () => busiest, overhead);
  const sweeps = timeSweeps(book, sweepCount, overhead);
  console.log(
    `  actions: random-instrument ticks ${random.actions} (on ${pct(random.ticksWithActions, ticks)} of ticks), ` +
      `busiest-instrument ticks ${busy.actions} (on ${pct(busy.ticksWithActions, busyTicks)}), sweeps ${sweeps.actions}\n`,
  );
  const label = size >= 1_000_000 ? '1M' : `${size / 1000}k`;
  rows.push(
    {
      label: `${label} tick, random instrument`,
      positions: `~${thousands(mean)} avg`,
      ...random,
      target: size === 100_000 ? 0.5 : undefined,
    },
    {
      label: `${label} tick, busiest instrument`,
      positions: thousands(book.perInstrument[busiest]),
      ...busy,
      target: size === 100_000 ? 0.5 : undefined,
    },
    {
      label: `${label} full sweep`,
      positions: thousands(size),
      ...sweeps,
      target: size === 1_000_000 ? 10 : undefined,
    },
  );
}

const header = ['measurement', 'positions', 'engine median', 'p99', 'CPU/op', 'bare median', 'p99', 'CPU/op', 'target'];
const lines = rows.map((r) => [
  r.label,
  r.positions,
  fmt(r.engine.median),
  fmt(r.engine.p99),
  fmt(r.engine.cpu),
  fmt(r.bare.median),
  fmt(r.bare.p99),
  fmt(r.bare.cpu),
  r.target === undefined ? '' : `≤ ${fmt(r.target)} ${r.engine.median <= r.target ? 'met' : 'MISSED'}`,
]);
const widths = header.map((h, c) => Math.max(h.length, ...lines.map((l) => l[c].length)));
const line = (cells: string[]) =>
  cells.map((cell, c) => (c < 2 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ');
console.log(line(header));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const l of lines) console.log(line(l));
console.log(
  `\nload average at end: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log("median and p99 are wall time per operation; CPU/op is this process's CPU time per operation (mean).");
console.log('target verdict on the wall median; bare = the same P/L arithmetic over the same columns, nothing else.');
