import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import pg from 'pg';
import { Pool } from 'undici';
import { buildApp } from '../apps/server/src/app.ts';
import { boot } from '../apps/server/src/bootstrap.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import type { Db } from '../apps/server/src/db/client.ts';
import { balances, instruments, ledgerEntries, orders } from '../apps/server/src/db/schema.ts';
import type { PhaseResult, RawPhase } from './orders-client.ts';
import { PASSWORD, createCustomers } from './customers.ts';
import { partnerCounts, setPartnerTree } from './partners-tree.ts';
import { setLedgerChain } from './records-chain.ts';
import { LoadClient, WindowProfiler, type CpuUse } from './orders-load.ts';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: process.env.BENCH_DB ?? 'both' },
    seconds: { type: 'string', default: process.env.BENCH_SECONDS ?? '10' },
    warmup: { type: 'string', default: process.env.BENCH_WARMUP ?? '3' },
    concurrency: { type: 'string', default: process.env.BENCH_CONCURRENCY ?? '24,96' },
    users: { type: 'string', default: process.env.BENCH_USERS ?? '200' },
    'pg-url': { type: 'string', default: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
    /** A folder: the server's CPU profile of each measured HTTP window is written there (open it in Chrome DevTools). */
    profile: { type: 'string', default: process.env.BENCH_PROFILE },
    /**
     * The ledger's hash chain: 'both' measures each level without it, then with it (the figure beside the baseline);
     * a list (off,on,off,on) measures in that order, so a drift of the machine during the run falls on both sides.
     */
    chain: { type: 'string', default: process.env.BENCH_CHAIN ?? 'both' },
    /** A three-level partner tree on every customer: 'off', 'on', or 'both' (without, then with, in each level). */
    partners: { type: 'string', default: process.env.BENCH_PARTNERS ?? 'off' },
  },
});
const PARTNER_MODES = args.partners === 'both' ? [false, true] : [args.partners === 'on'];
const CHAIN_MODES = args.chain === 'both' ? [false, true] : args.chain.split(',').map((m) => m.trim() !== 'off');

const SECONDS = Number(args.seconds);
const WARMUP = Number(args.warmup);
/** Orders in flight, one HTTP phase (and one raw phase) per level. */
const CONCURRENCIES = args.concurrency.split(',').map(Number);
const USERS = Math.max(Number(args.users), ...CONCURRENCIES);

/** Liquid forex pairs priced in USD, so margins need no cross rate beyond the wallet's own currency. */
const INSTRUMENTS = ['EUR_USD', 'GBP_USD', 'AUD_USD', 'NZD_USD'];
/** The raw transaction is capped below PostgreSQL's 100 connections, leaving room for other sessions. */
const RAW_MAX_CONNECTIONS = 80;
const LOAD_AT_START = os
  .loadavg()
  .map((l) => l.toFixed(1))
  .join(' ');

if (![SECONDS, WARMUP, USERS, ...CONCURRENCIES].every((n) => Number.isFinite(n) && n > 0)) {
  console.error('--seconds, --warmup, --concurrency (comma-separated) and --users must be positive numbers');
  process.exit(2);
}
if (!['pglite', 'postgres', 'both'].includes(args.db)) {
  console.error('--db must be pglite, postgres or both');
  process.exit(2);
}

/** Each customer signs in from its own address (behind the proxy), as real traders do; the per-IP limit stays on. */
async function signInAll(
  origin: string,
  customers: Array<{ email: string }>,
): Promise<Array<{ cookie: string; ip: string }>> {
  const pool = new Pool(origin, { connections: 8 });
  const out: Array<{ cookie: string; ip: string }> = new Array(customers.length);
  let next = 0;
  const worker = async () => {
    while (next < customers.length) {
      const i = next++;
      const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
      const res = await pool.request({
        path: '/api/auth/login',
        method: 'POST',
        headers: { 'content-type': 'application/json', origin, 'x-forwarded-for': ip },
        body: JSON.stringify({ email: customers[i].email, password: PASSWORD }),
      });
      const text = await res.body.text();
      const setCookie = [res.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('sid='));
      if (res.statusCode !== 200 || !setCookie)
        throw new Error(`sign-in of ${customers[i].email}: ${res.statusCode} ${text}`);
      out[i] = { cookie: setCookie.split(';')[0], ip };
    }
  };
  try {
    await Promise.all(Array.from({ length: 8 }, worker));
  } finally {
    await pool.close();
  }
  return out;
}

/** Every position the run opened is closed and every hold released: the figures are of real, consistent work. */
async function checkWallets(db: Db, walletIds: number[]): Promise<string> {
  const [open] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(orders)
    .where(and(inArray(orders.balanceId, walletIds), isNull(orders.closeTime)));
  const [held] = await db
    .select({ m: sql<string>`coalesce(sum(${balances.margin}), 0)` })
    .from(balances)
    .where(inArray(balances.id, walletIds));
  const [drift] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(balances)
    .where(
      and(
        inArray(balances.id, walletIds),
        sql`${balances.balance} <> (select coalesce(sum(l.amount), 0) from ${ledgerEntries} l where l.balance_id = ${balances.id})`,
      ),
    );
  const [{ n: total }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(orders)
    .where(inArray(orders.balanceId, walletIds));
  const ok = open.n === 0 && Number(held.m) === 0 && drift.n === 0;
  return `${ok ? 'consistent' : 'INCONSISTENT'}: ${total} orders written, ${open.n} left open, margin held ${held.m}, wallets off their ledger ${drift.n}`;
}

/** The raw placement transaction on PGlite, in this process (PGlite has no network protocol to drive it from outside). */
async function rawPglite(db: Db, phase: Omit<RawPhase, 'url' | 'type'>): Promise<PhaseResult> {
  const latencies: number[] = [];
  let measuring = false;
  let stopped = false;
  const ins = phase.instrument;
  const worker = async (i: number) => {
    const { walletId, userId } = phase.wallets[i];
    while (!stopped) {
      const t0 = performance.now();
      await db.transaction(async (tx) => {
        await tx.execute(
          sql`SELECT id, user_id, balance, margin, currency FROM balances WHERE id = ${walletId} FOR UPDATE`,
        );
        await tx.execute(sql`INSERT INTO orders (user_id, balance_id, balance_mode, balance_currency, instrument_id, instrument, base_symbol, quote_symbol, kind, type, trade_amount,
             open_rate, open_bid, open_ask, take_profit, stop_loss, spread, exchange_rate, margin_used, leverage)
           VALUES (${userId}, ${walletId}, 'real', 'USD', ${ins.id}, ${ins.name}, ${ins.base}, ${ins.quote}, ${ins.kind}, 'buy', '1000.00000000', ${ins.ask}, ${ins.bid}, ${ins.ask},
             NULL, NULL, '0.20000000', '1.00000000', '11.00000000', 100) RETURNING *`);
        await tx.execute(sql`UPDATE balances SET margin = margin + ${'11.00000000'} WHERE id = ${walletId}`);
      });
      if (measuring) latencies.push(performance.now() - t0);
      // PGlite answers from the same thread without real I/O, so a chain of queued transactions would otherwise
      // never let the event loop reach the timers that end the phase.
      await new Promise<void>((r) => setImmediate(r));
    }
  };
  const running = Array.from({ length: phase.concurrency }, (_, i) => worker(i));
  await new Promise((r) => setTimeout(r, phase.warmupMs));
  measuring = true;
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, phase.measureMs));
  measuring = false;
  const seconds = (performance.now() - t0) / 1000;
  stopped = true;
  await Promise.all(running);
  const sorted = Float64Array.from(latencies).sort();
  const pct = (p: number) =>
    sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;
  return {
    ops: sorted.length,
    seconds,
    p50: pct(50),
    p99: pct(99),
    max: sorted[sorted.length - 1] ?? 0,
    errors: 0,
    errorSamples: [],
    clientCpuMs: 0,
  };
}

interface Row {
  db: string;
  concurrency?: number;
  http?: { result: PhaseResult; cpu: CpuUse | null };
  raw?: { result: PhaseResult; cpu: CpuUse | null; label: string };
  note?: string;
}

async function runOne(kind: 'pglite' | 'postgres', load: LoadClient): Promise<Row[]> {
  let url: string | undefined;
  let admin: pg.Client | null = null;
  let dbName = '';
  if (kind === 'postgres') {
    admin = new pg.Client({ connectionString: args['pg-url'], connectionTimeoutMillis: 3000 });
    try {
      await admin.connect();
    } catch (err) {
      return [
        {
          db: 'postgres',
          note: `skipped: ${args['pg-url']} unreachable (${err instanceof Error ? err.message : String(err)})`,
        },
      ];
    }
    dbName = `bench_${randomBytes(5).toString('hex')}`;
    await admin.query(`create database ${dbName}`);
    const u = new URL(args['pg-url']);
    u.pathname = `/${dbName}`;
    url = u.toString();
  }
  const backends = async (): Promise<number[]> =>
    admin
      ? (await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [dbName])).rows.map(
          (r) => r.pid,
        )
      : [];

  try {
    const config = loadConfig({
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      MARKET_HOURS: 'open',
      MARKET_FEED: 'false',
      SEED_DEMO: 'false',
      // Behind a proxy each trader has its own address; that keeps the per-IP sign-in limit meaningful for 200 sign-ins.
      TRUST_PROXY: 'true',
      DATA_DIR: path.join(os.tmpdir(), 'bench-unused'),
      ...(url ? { DATABASE_URL: url } : {}),
    });
    const { ctx, database, risk } = await boot(config, { memory: kind === 'pglite' });
    const app = await buildApp({ ctx, logger: { level: config.LOG_LEVEL } });
    ctx.realtime.attach(app.server, ctx.db);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no listening address');
    const origin = `http://127.0.0.1:${address.port}`;
    try {
      const t0 = performance.now();
      const customers = await createCustomers(ctx.db, USERS);
      const sessions = await signInAll(origin, customers);
      console.log(
        `[${kind}] ${customers.length} customers created and signed in over HTTP in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );

      const [eur] = await ctx.db.select().from(instruments).where(eq(instruments.name, 'EUR_USD'));
      const instrument = {
        id: eur.id,
        name: eur.name,
        base: eur.base,
        quote: eur.quote,
        kind: eur.category,
        bid: eur.bids ?? '1',
        ask: eur.asks ?? '1',
      };
      const rows: Row[] = [];
      for (const chained of CHAIN_MODES) {
        await setLedgerChain(ctx.db, chained);
        for (const partnered of PARTNER_MODES) {
          await setPartnerTree(
            ctx.db,
            partnered,
            customers.map((c) => c.id),
          );
          const label = `${CHAIN_MODES.length > 1 ? `${kind}${chained ? ' chained' : ' unchained'}` : kind}${
            PARTNER_MODES.length > 1 || partnered ? (partnered ? ', 3-level partners' : ', no partners') : ''
          }`;
          for (const concurrency of CONCURRENCIES) {
            const profiler = args.profile
              ? new WindowProfiler(path.join(args.profile, `orders-${kind}-${concurrency}-${Date.now()}.cpuprofile`))
              : null;
            const http = await load.run(
              {
                type: 'http',
                origin,
                users: sessions.slice(0, concurrency),
                instruments: INSTRUMENTS,
                concurrency,
                warmupMs: WARMUP * 1000,
                measureMs: SECONDS * 1000,
              },
              backends,
              profiler ? (edge) => profiler.edge(edge) : undefined,
            );
            if (profiler) console.log(`[${kind}] server CPU profile of the measured window: ${await profiler.done()}`);
            const walletIds = customers.slice(0, concurrency).map((c) => c.walletId);
            const counts = partnered ? await partnerCounts(ctx.db) : null;
            console.log(
              `[${label}] ${concurrency} in flight: HTTP ${(http.result.ops / http.result.seconds).toFixed(0)} orders/s; wallets ${await checkWallets(ctx.db, walletIds)}${
                counts ? `; partner commissions ${counts.commissions}, accrual jobs waiting ${counts.waiting}` : ''
              }`,
            );

            // The raw transaction uses the customers the HTTP phase left alone, so its open orders do not mix with them.
            // Other sessions share the server's connection limit, so the raw clients take only what is free.
            const free = admin
              ? (
                  await admin.query<{ n: number }>(
                    "select current_setting('max_connections')::int - (select count(*) from pg_stat_activity)::int - 10 as n",
                  )
                ).rows[0].n
              : Infinity;
            const rawConcurrency = Math.max(
              1,
              Math.min(concurrency, RAW_MAX_CONNECTIONS, customers.length - concurrency, free),
            );
            const rawWallets = customers
              .slice(customers.length - rawConcurrency)
              .map((c) => ({ walletId: c.walletId, userId: c.id }));
            const timing = {
              concurrency: rawConcurrency,
              warmupMs: Math.min(WARMUP, 2) * 1000,
              measureMs: SECONDS * 1000,
              wallets: rawWallets,
              instrument,
            };
            if (url) {
              // The server keeps its idle pool; the raw clients come on top, under the connection cap.
              const raw = await load.run({ type: 'raw', url, ...timing }, backends);
              rows.push({
                db: label,
                concurrency,
                http,
                raw: { ...raw, label: `node-postgres, ${rawConcurrency} connections` },
              });
            } else {
              // PGlite has a single connection that runs one transaction at a time, so more callers only queue.
              const raw = await rawPglite(ctx.db, { ...timing, concurrency: 1 });
              rows.push({
                db: label,
                concurrency,
                http,
                raw: { result: raw, cpu: null, label: 'PGlite in-process, one connection' },
              });
            }
          }
        }
      }
      return rows;
    } finally {
      // Shut down in main.ts's order; a failing step must not leave the pool open while the database is dropped.
      const steps = [
        ['market', () => ctx.market.stop()],
        ['risk engine', () => risk.stop()],
        ['realtime', () => ctx.realtime.close()],
        ['app', () => app.close()],
        ['database', () => database.close()],
      ] as const;
      for (const [what, step] of steps) {
        await step().catch((err: unknown) =>
          console.error(`[${kind}] closing ${what}: ${err instanceof Error ? err.message : String(err)}`),
        );
      }
    }
  } finally {
    if (admin) {
      await admin.query(`drop database if exists ${dbName} with (force)`);
      await admin.end();
    }
  }
}

function printTable(rows: Row[]): void {
  const f = (n: number, d = 1) => n.toFixed(d);
  const rate = (r: PhaseResult) => f(r.ops / r.seconds, 0);
  const head = [
    'db',
    'in flight',
    'orders/s',
    'p50 ms',
    'p99 ms',
    'max ms',
    'errors',
    'raw PG tx/s',
    'raw p50 ms',
    'raw p99 ms',
  ];
  const body = rows.map((r) => {
    const h = r.http?.result;
    const w = r.raw?.result;
    return [
      r.db,
      r.concurrency ? String(r.concurrency) : '-',
      h ? rate(h) : '-',
      h ? f(h.p50) : '-',
      h ? f(h.p99) : '-',
      h ? f(h.max) : '-',
      h ? String(h.errors) : '-',
      w ? rate(w) : '-',
      w ? f(w.p50) : '-',
      w ? f(w.p99) : '-',
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(
    `\nOrders over HTTP: ${CONCURRENCIES.join(' and ')} orders in flight (one virtual user each), ${WARMUP} s warm-up, ${SECONDS} s measured; an open and a close count as one order each.`,
  );
  console.log(
    'Latency is bound by the orders in flight (mean = in flight / rate): at 2,500 orders/s a 25 ms p99 leaves room for about 40, and 96 in flight',
  );
  console.log(
    'wait 38 ms on average however fast each order is. The raw transaction runs at the same level in the same run.',
  );
  console.log(
    `Machine: ${os.cpus().length} cores shared by the server (this process), the load generator (a child process) and the database; load average at start ${LOAD_AT_START}.\n`,
  );
  console.log(line(head));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const b of body) console.log(line(b));
  console.log('');
  for (const r of rows) {
    if (r.note) console.log(`${r.db}: ${r.note}`);
    const at = `${r.db} @ ${r.concurrency ?? '-'}`;
    const cpuLine = (what: string, res: PhaseResult, cpu: CpuUse | null) => {
      if (!cpu) return;
      const perOp = (ms: number) => f((ms * 1000) / (res.ops / res.seconds), 0);
      const others = Math.max(0, cpu.machine - cpu.server - cpu.client - (cpu.db ?? 0));
      console.log(
        `${at}: ${what} CPU per op (µs): server ${perOp(cpu.server)}, database ${cpu.db === null ? 'in server' : perOp(cpu.db)}, load generator ${perOp(cpu.client)}` +
          `; machine busy ${f(cpu.machine / 10 / os.cpus().length, 0)} %, of which other processes ${f(others / 10, 0)} % of one core`,
      );
    };
    if (r.http) cpuLine('HTTP', r.http.result, r.http.cpu);
    if (r.raw) {
      console.log(
        `${at}: raw = BEGIN; SELECT … FOR UPDATE; INSERT INTO orders; UPDATE balances SET margin; COMMIT (${r.raw.label})`,
      );
      cpuLine('raw', r.raw.result, r.raw.cpu);
    }
    if (r.http?.result.errors) console.log(`${at}: errors, e.g. ${r.http.result.errorSamples.join(' | ')}`);
    if (r.raw?.result.errors) console.log(`${at}: raw errors, e.g. ${r.raw.result.errorSamples.join(' | ')}`);
  }
}

const kinds: Array<'pglite' | 'postgres'> =
  args.db === 'both' ? ['pglite', 'postgres'] : [args.db as 'pglite' | 'postgres'];
const load = new LoadClient();
const rows: Row[] = [];
try {
  for (const kind of kinds) rows.push(...(await runOne(kind, load)));
} finally {
  load.close();
}
printTable(rows);
process.exit(0);
