/**
 * Price alerts' book: 1,000,000 active alerts over 60 instruments (a third of them on the busiest), then the cost of
 * one tick on the busiest instrument when it fires nothing and when it fires 100, beside a plain scan of that
 * instrument's alerts in the same run (what a tick would cost without the sorted buckets). Also the bulk load (start,
 * takeover; in one go and in the watcher's steps) and one edit (remove + insert) at that size.
 *
 *   node --import tsx bench/alerts.ts        (or: npm run alerts -w bench)
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { AlertBook, type AlertEntry } from '../apps/server/src/modules/alerts/alert-book.ts';

const TOTAL = 1_000_000;
const INSTRUMENTS = 60;
const BUSIEST = 1;

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rand = rng(20261121);
const MID = 1.1;
const round5 = (x: number) => Math.round(x * 1e5) / 1e5;
const entries: AlertEntry[] = [];
for (let id = 1; id <= TOTAL; id++) {
  const instrumentId = rand() < 1 / 3 ? BUSIEST : 2 + Math.floor(rand() * (INSTRUMENTS - 1));
  const above = rand() < 0.5;
  // Levels 0.1%–10% away from the mid, on the side the direction points to.
  const away = MID * (0.001 + rand() * 0.099);
  entries.push({
    id,
    instrumentId,
    side: rand() < 0.5 ? 'bid' : 'ask',
    condition: above ? 'above' : 'below',
    price: round5(above ? MID + away : MID - away),
  });
}
const busiest = entries.filter((e) => e.instrumentId === BUSIEST);

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], p99: s[Math.floor(s.length * 0.99)] };
};
const us = (ms: number) => `${(ms * 1000).toFixed(2)} µs`;

const book = new AlertBook();
let t0 = performance.now();
book.load(entries);
const loadMs = performance.now() - t0;
// The watcher's load: one instrument at a time, yielding between; the longest step is how long ticks wait.
const stepped = new AlertBook();
let longest = 0;
let last = performance.now();
await stepped.loadInSteps(entries, async () => {
  const now = performance.now();
  longest = Math.max(longest, now - last);
  await new Promise((resolve) => setImmediate(resolve));
  last = performance.now();
});
longest = Math.max(longest, performance.now() - last);

// A tick that fires nothing: the bid and ask wander within 0.05% of the mid.
const quiet: number[] = [];
for (let i = 0; i < 20_000; i++) {
  const bid = round5(MID * (1 + (rand() - 0.5) * 0.001));
  t0 = performance.now();
  const hit = book.takeCrossed(BUSIEST, bid, bid + 0.0002);
  quiet.push(performance.now() - t0);
  if (hit.length) throw new Error('a quiet tick fired');
}

// A tick that fires the 100 nearest alerts above: they go back in afterwards (not timed).
const above = busiest
  .filter((e) => e.side === 'bid' && e.condition === 'above')
  .sort((a, b) => a.price - b.price || a.id - b.id);
const firing: number[] = [];
for (let i = 0; i < 500; i++) {
  const bid = above[99].price;
  const expected = above.filter((e) => e.price <= bid).length;
  t0 = performance.now();
  const hit = book.takeCrossed(BUSIEST, bid, MID);
  firing.push(performance.now() - t0);
  if (hit.length !== expected) throw new Error(`fired ${hit.length}, expected ${expected}`);
  for (const e of hit) book.upsert(e);
}

// The same decision as a scan of the instrument's alerts.
const scan: number[] = [];
for (let i = 0; i < 200; i++) {
  const bid = round5(MID * (1 + (rand() - 0.5) * 0.001));
  const ask = bid + 0.0002;
  t0 = performance.now();
  let n = 0;
  for (const e of busiest) {
    const p = e.side === 'bid' ? bid : ask;
    if (e.condition === 'above' ? p >= e.price : p <= e.price) n++;
  }
  scan.push(performance.now() - t0);
  if (n) throw new Error('the scan found a crossing');
}

// One edit: move an alert to another level of the busiest instrument.
const edits: number[] = [];
for (let i = 0; i < 2_000; i++) {
  const e = busiest[Math.floor(rand() * busiest.length)];
  const moved = { ...e, price: round5(e.price * (e.condition === 'above' ? 1.0001 : 0.9999)) };
  t0 = performance.now();
  book.upsert(moved);
  edits.push(performance.now() - t0);
}

const q = stats(quiet);
const f = stats(firing);
const s = stats(scan);
const ed = stats(edits);
console.log(`Price alerts' book — ${os.cpus().length} cores, node ${process.version}`);
console.log(`${TOTAL.toLocaleString('en')} alerts, ${busiest.length.toLocaleString('en')} on the busiest instrument`);
console.log(`bulk load in one go                 ${loadMs.toFixed(0)} ms`);
console.log(
  `load in steps: longest step        ${longest.toFixed(0)} ms (the busiest instrument; ticks wait at most this)`,
);
console.log(`tick, nothing fires                median ${us(q.median)}  p99 ${us(q.p99)}`);
console.log(`tick, 100 fire                     median ${us(f.median)}  p99 ${us(f.p99)}`);
console.log(`scan of the instrument (baseline)  median ${us(s.median)}  p99 ${us(s.p99)}`);
console.log(`edit one alert (remove + insert)   median ${us(ed.median)}  p99 ${us(ed.p99)}`);
