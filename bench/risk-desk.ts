/**
 * The exposure desk's cost on the server: boots the product in this process (embedded database), puts 100,000 open
 * positions over 60 instruments and 20,000 real wallets into its risk engine through the order path's hook (as fills
 * would), moves 20 instruments' prices 4 times a second, and measures this process's CPU time per second of wall
 * time in three phases of the same run: the baseline (ticks only), one desk client, and five desk clients. The
 * clients (bench/risk-desk-client.ts) run in their own processes and ask what the screen asks at its rates. The
 * desk's cost is the difference from the baseline, as a percentage of one core. It also times one exposure read and
 * one top-clients read in-process (CPU per call), which is what a desk refresh costs without HTTP, and the order path's
 * limits check (CPU per order).
 *
 *   node --import tsx bench/risk-desk.ts [--positions=100000] [--seconds=20]      (or: npm run risk-desk -w bench)
 *
 * Aim: the desk below 5 % of a core at 100,000 open positions.
 */
import { fork } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../apps/server/src/app.ts';
import { boot } from '../apps/server/src/bootstrap.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { users } from '../apps/server/src/db/schema.ts';
import type { OrderRow } from '../apps/server/src/engine/hooks.ts';
import type { Quote } from '../apps/server/src/market/price-book.ts';
import { createSession, SESSION_COOKIE } from '../apps/server/src/modules/auth/sessions.ts';
import { readExposure, readTopClients } from '../apps/server/src/modules/risk/exposure.ts';
import { reserveIn } from '../apps/server/src/modules/risk/limits.ts';
import { rng } from './risk-book.ts';

const { values: args } = parseArgs({
  options: {
    positions: { type: 'string', default: process.env.BENCH_POSITIONS ?? '100000' },
    seconds: { type: 'string', default: process.env.BENCH_SECONDS ?? '20' },
  },
});
const POSITIONS = Number(args.positions);
const SECONDS = Number(args.seconds);
const WALLETS = 20_000;
const AIM_PERCENT = 5;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const config = loadConfig({
  NODE_ENV: 'production',
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'silent',
  MARKET_HOURS: 'open',
  MARKET_FEED: 'false',
  SEED_DEMO: 'false',
  DATA_DIR: path.join(os.tmpdir(), 'bench-unused'),
});
const { ctx, database, risk } = await boot(config, { memory: true });
const app = await buildApp({ ctx, logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
if (!address || typeof address === 'string') throw new Error('no listening address');
const url = `http://127.0.0.1:${address.port}`;

// An admin's session for the desk clients.
const [admin] = await ctx.db
  .insert(users)
  .values({ fullName: 'Desk Admin', email: 'desk@bench.test', passwordHash: 'x', roleId: 1, isEmailVerified: true })
  .returning({ id: users.id });
const { token } = await createSession(ctx.db, { userId: admin.id, remember: false, ip: '127.0.0.1' });
const cookie = `${SESSION_COOKIE}=${token}`;

// The book: 60 instruments, skewed (a few carry most positions), 20,000 real wallets of 20,000 clients.
const instruments = ctx.market.instruments.list().slice(0, 60);
const rand = rng(POSITIONS);
const weights = instruments.map((_, i) => 1 / (i + 1) ** 0.8);
const total = weights.reduce((a, b) => a + b, 0);
const pick = () => {
  let x = rand() * total;
  for (let i = 0; i < weights.length; i++) if ((x -= weights[i]) <= 0) return instruments[i];
  return instruments[instruments.length - 1];
};
const built = performance.now();
for (let n = 1; n <= POSITIONS; n++) {
  const instrument = pick();
  const q = ctx.market.book.get(instrument.name);
  const mid = q ? (q.bid + q.ask) / 2 : 1;
  const wallet = 1_000_000 + (n % WALLETS);
  const order = {
    id: 10_000_000 + n,
    userId: 2_000_000 + (n % WALLETS),
    balanceId: wallet,
    balanceMode: 'real',
    balanceCurrency: 'USD',
    instrumentId: instrument.id,
    instrument: instrument.name,
    baseSymbol: instrument.base,
    quoteSymbol: instrument.quote,
    type: rand() < 0.55 ? 'buy' : 'sell',
    tradeAmount: String(1000 * (1 + Math.floor(rand() * 100))),
    openRate: (mid * (0.995 + rand() * 0.01)).toPrecision(8),
    spread: '1',
    exchangeRate: String(ctx.market.conversionRate(instrument.quote, 'USD') ?? 1),
    marginUsed: '100',
    takeProfit: null,
    stopLoss: null,
    trailingDistance: null,
    trailingStep: null,
  } as unknown as OrderRow;
  risk.opened(order, { id: wallet, balance: '1000000000000', currency: 'USD', stopoutPercent: null, marginCall: null });
}
console.log(
  `book: ${risk.engine.size.toLocaleString('en-US')} positions built in ${(performance.now() - built).toFixed(0)} ms`,
);

// The feed: 20 instruments moved 4 times a second, in every phase.
const names = instruments.map((i) => i.name);
const feed = setInterval(() => {
  const moved: Quote[] = [];
  for (let i = 0; i < 20; i++) {
    const name = names[Math.floor(Math.random() * names.length)];
    const q = ctx.market.book.get(name);
    if (!q) continue;
    const bid = Number((q.bid * (1 + (Math.random() - 0.5) * 1e-4)).toPrecision(8));
    const spread = q.ask - q.bid;
    moved.push({ name, bid, ask: bid + spread, closeoutBid: bid, closeoutAsk: bid + spread, time: Date.now() });
  }
  ctx.market.book.apply(moved);
}, 250);

/** This process's CPU milliseconds per second of wall time over `seconds`. */
async function measure(seconds: number): Promise<number> {
  const cpu = process.cpuUsage();
  const at = performance.now();
  await sleep(seconds * 1000);
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / 1000 / ((performance.now() - at) / 1000);
}

async function withDesk(clients: number): Promise<{ cpu: number; requests: number; failed: number; meanMs: number }> {
  const child = fork(path.join(import.meta.dirname, 'risk-desk-client.ts'), [url, cookie, String(clients)], {
    execArgv: ['--import', 'tsx'],
    stdio: 'inherit',
  });
  await sleep(3000);
  const cpu = await measure(SECONDS);
  const report = new Promise<{ requests: number; failed: number; meanMs: number }>((resolve) =>
    child.once('message', (m) => resolve(m as { requests: number; failed: number; meanMs: number })),
  );
  child.send({ type: 'stop' });
  return { cpu, ...(await report) };
}

await sleep(3000);
const baseline = await measure(SECONDS);
const one = await withDesk(1);
await sleep(2000);
const five = await withDesk(5);

// One exposure and one top-clients read in-process: CPU per call.
const actor = { id: admin.id, roleId: 1 };
const perCall = async (fn: () => Promise<unknown>, n: number) => {
  for (let i = 0; i < 5; i++) await fn();
  const cpu = process.cpuUsage();
  for (let i = 0; i < n; i++) await fn();
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / 1000 / n;
};
// The engine's scans themselves (the reads above share one scan per 250 ms, so they are timed apart).
const scanMs = await perCall(async () => risk.exposure({ mode: 'real' }, 'USD', false), 200);
const scanClientsMs = await perCall(async () => risk.exposure({ mode: 'real' }, 'USD', true), 100);
const exposureMs = await perCall(() => readExposure(ctx, actor, { mode: 'real' }), 200);
const topMs = await perCall(() => readTopClients(ctx, actor, { mode: 'real', by: 'pl', limit: 10 }), 100);

// The order path's limits check with a limit on the instrument, against this engine's net: CPU per check.
const limitSet = {
  byInstrument: new Map([[instruments[0].name, { maxNet: 1e12, maxPosition: 1e9, warnPercent: 80 }]]),
  byCategory: new Map(),
  rows: [],
};
const checked = { instrument: instruments[0], mode: 'real', side: 'buy' as const, amount: 1000 };
for (let i = 0; i < 100_000; i++) reserveIn(limitSet, ctx, checked)();
const checkCpu = process.cpuUsage();
for (let i = 0; i < 1_000_000; i++) reserveIn(limitSet, ctx, checked)();
const checkUsed = process.cpuUsage(checkCpu);
const checkUs = (checkUsed.user + checkUsed.system) / 1_000_000;

clearInterval(feed);
const pct = (ms: number) => (ms / 10).toFixed(2);
console.log(`\nexposure desk at ${risk.engine.size.toLocaleString('en-US')} open positions, ${SECONDS} s per phase`);
console.log(
  'phase                         server CPU ms/s   % of a core   desk cost (% core)   requests   mean wall ms',
);
console.log(`baseline (ticks only)         ${baseline.toFixed(1).padStart(15)}   ${pct(baseline).padStart(11)}`);
for (const [label, r] of [
  ['1 desk client', one],
  ['5 desk clients', five],
] as const) {
  const cost = r.cpu - baseline;
  console.log(
    `${label.padEnd(29)} ${r.cpu.toFixed(1).padStart(15)}   ${pct(r.cpu).padStart(11)}   ${pct(cost).padStart(18)}   ${String(r.requests).padStart(8)}   ${r.meanMs.toFixed(1).padStart(12)}${r.failed ? `   (${r.failed} failed)` : ''}`,
  );
}
console.log(
  `\nin-process, CPU per call: the engine's scan ${scanMs.toFixed(2)} ms (with the per-client sums ${scanClientsMs.toFixed(2)} ms); the exposure read ${exposureMs.toFixed(2)} ms and the top clients ${topMs.toFixed(2)} ms with the shared scan`,
);
console.log(`the order path's limits check: ${checkUs.toFixed(3)} µs of CPU per order`);
const cost = one.cpu - baseline;
console.log(
  `aim: the desk below ${AIM_PERCENT} % of a core -> ${pct(cost)} % with one desk client: ${cost / 10 < AIM_PERCENT ? 'met' : 'NOT met'}`,
);

await app.close();
await risk.stop();
await database.close();
process.exit(0);
