/**
 * Pending orders beside open positions: one instrument's tick on the busiest instrument with 1M open positions alone,
 * then, in the same run on the same quotes, with 1M pending orders waiting in the pending book too (limits and stops
 * on both sides, 0.02 % to 5 % from the price, skewed over instruments like the positions). Orders a tick reaches are
 * replaced by new ones between ticks, as the order flow would. Also: building the pending book, placing into it and
 * cancelling from it at that size.
 *
 *   node --import tsx bench/pending.ts        (or: npm run pending -w bench)
 *
 * Target: the tick with pending orders within 2× the tick with positions alone.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { PendingTrigger } from '@platform/domain';
import { PendingBook } from '../apps/server/src/engine/pending-book.ts';
import { DIGITS, INSTRUMENTS, build, rng, round } from './risk-book.ts';

const POSITIONS = 1_000_000;
const PENDING = 1_000_000;
const TICKS = 5_000;
const WARMUP = 1_000;

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const fmt = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`);
const thousands = (n: number) => n.toLocaleString('en-US');
const median = (a: Float64Array) => Float64Array.from(a).sort()[Math.floor(a.length / 2)];
const p99 = (a: Float64Array) => Float64Array.from(a).sort()[Math.floor(a.length * 0.99)];

console.log(
  `Pending book benchmark: Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'})`,
);
console.log(
  `load average at start: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}\n`,
);

const book = build(POSITIONS);
const { engine, bids, asks, perInstrument } = book;
const busiest = perInstrument.indexOf(Math.max(...perInstrument));
console.log(
  `${thousands(POSITIONS)} positions built in ${(book.buildMs / 1000).toFixed(2)} s; busiest instrument ${thousands(perInstrument[busiest])} positions`,
);

// ---- the pending book: 1M orders spread like the positions -----------------------------------------------------
const rand = rng(42);
const pending = new PendingBook();
const TRIGGERS: PendingTrigger[] = ['ask_le', 'ask_ge', 'bid_ge', 'bid_le'];
let nextId = 1;
const instrumentOfOrder = new Map<number, number>();
/** A new order on the instrument at 0.02 % to 5 % from the price, on the side its trigger waits for. */
function place(i: number): void {
  const trigger = TRIGGERS[Math.floor(rand() * 4)];
  const away = 0.0002 + rand() * 0.05;
  // "At or below" triggers wait below the market, "at or above" above it.
  const below = trigger === 'ask_le' || trigger === 'bid_le';
  const market = trigger.startsWith('ask') ? asks[i] : bids[i];
  const price = round(market * (below ? 1 - away : 1 + away), DIGITS[i % DIGITS.length]);
  const id = nextId++;
  instrumentOfOrder.set(id, i);
  pending.add(id, i, trigger, price);
}
const cumulative = new Float64Array(INSTRUMENTS);
let total = 0;
for (let i = 0; i < INSTRUMENTS; i++) cumulative[i] = total += perInstrument[i];
const pickInstrument = () => {
  const x = rand() * total;
  let lo = 0;
  let hi = INSTRUMENTS - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};
let t0 = performance.now();
for (let k = 0; k < PENDING; k++) place(pickInstrument());
const buildMs = performance.now() - t0;
const onBusiest = pending.idsOn(busiest).length;
console.log(
  `${thousands(PENDING)} pending orders placed in ${(buildMs / 1000).toFixed(2)} s (${fmt(buildMs / PENDING)} each); ` +
    `busiest instrument ${thousands(onBusiest)} waiting; rss ${Math.round(process.memoryUsage().rss / 2 ** 20)} MB\n`,
);

// ---- ticks: positions alone, then positions and pending orders, on the same random walk --------------------------
function timeTicks(withPending: boolean) {
  const walk = rng(99);
  const wall = new Float64Array(TICKS);
  let cpu = 0;
  let triggered = 0;
  const out: number[] = [];
  for (let r = -WARMUP; r < TICKS; r++) {
    // Outside the timing: the order flow replaces what the last tick closed or filled.
    book.churn(engineActions);
    for (const id of out) {
      const i = instrumentOfOrder.get(id) as number;
      instrumentOfOrder.delete(id);
      place(i);
    }
    if (r >= 0) triggered += out.length;
    out.length = 0;
    const d = DIGITS[busiest % DIGITS.length];
    bids[busiest] = round(bids[busiest] * (1 + (walk() - 0.5) * 2e-4), d);
    asks[busiest] = round(bids[busiest] * 1.0002, d);
    const c0 = cpuMs();
    const start = performance.now();
    engineActions = engine.tick(busiest, bids[busiest], asks[busiest]);
    if (withPending) pending.tick(busiest, bids[busiest], asks[busiest], out);
    const took = performance.now() - start;
    if (r >= 0) {
      wall[r] = took;
      cpu += cpuMs() - c0;
    }
  }
  book.churn(engineActions);
  engineActions = [];
  return { median: median(wall), p99: p99(wall), cpu: cpu / TICKS, triggered };
}
let engineActions: ReturnType<typeof engine.tick> = [];
const alone = timeTicks(false);
const both = timeTicks(true);

// ---- placing and cancelling at 1M ------------------------------------------------------------------------------
const OPS = 100_000;
const ids = [...instrumentOfOrder.keys()].slice(0, OPS);
t0 = performance.now();
for (const id of ids) pending.remove(id);
const removeMs = (performance.now() - t0) / OPS;
t0 = performance.now();
for (let k = 0; k < OPS; k++) place(busiest);
const addMs = (performance.now() - t0) / OPS;

const rows = [
  ['busiest instrument tick, positions alone', fmt(alone.median), fmt(alone.p99), fmt(alone.cpu), '—'],
  [
    `the same with ${thousands(PENDING)} pending orders (${both.triggered} filled over ${TICKS} ticks)`,
    fmt(both.median),
    fmt(both.p99),
    fmt(both.cpu),
    `${(both.median / alone.median).toFixed(2)}× (target ≤ 2×)`,
  ],
  [`place one order into a book of ${thousands(PENDING)} (busiest instrument)`, fmt(addMs), '', '', ''],
  [`cancel one order from it`, fmt(removeMs), '', '', ''],
];
const head = ['measurement', 'median', 'p99', 'CPU/op', 'ratio'];
const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
const line = (r: string[]) => r.map((v, c) => v.padEnd(widths[c])).join('  ');
console.log(line(head));
for (const r of rows) console.log(line(r));
