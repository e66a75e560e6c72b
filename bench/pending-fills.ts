/**
 * Tick to fill on PostgreSQL: 10,000 Buy Limit orders on EUR/USD over 1,000 wallets (10 each) that one tick reaches,
 * each timed from the tick to its fill committed (the moment its owner is told `pendingOrdersChanged: filled`); beside
 * it, in the same run, the same 10,000 orders sent at once as market orders through the same order path, each timed
 * from the common start to its position committed.
 *
 *   node --import tsx bench/pending-fills.ts [--orders=10000] [--wallets=1000] [--warmup=2000] [--floor-runs=3]
 *                                            [--no-market]      (or: npm run pending-fills -w bench -- …)
 *
 * Before the measured tick, an earlier one fills `--warmup` other orders (by default as many as the burst has, up to
 * 2,000: four statements at once), as a running server has: each connection prepares and plans the fill statement the
 * first time it runs it.
 *
 * Then, on the same database, the floor (bench/fill-floor.ts): the bare SQL of the same writes for the same number of
 * orders in one transaction, into the real tables, into copies with their indexes but no foreign keys and into
 * index-free copies, `--floor-runs` times. Beside the fills, the CPU the server (this process) and the database's
 * backends spent on the burst (Linux). `--no-market` leaves out the market orders.
 *
 * Aim (issue 22): p99 from the tick to a fill ≤ 50 ms.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { boot } from '../apps/server/src/bootstrap.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { placeOrder } from '../apps/server/src/modules/trading/place-order.ts';
import { placePending } from '../apps/server/src/modules/trading/pending/place-pending.ts';
import type { PendingService } from '../apps/server/src/modules/trading/pending/pending-service.ts';
import { createCustomers } from './customers.ts';
import { fillFloor, type FloorTimes } from './fill-floor.ts';
import { benchDatabase } from './pg-database.ts';

const { values: args } = parseArgs({
  options: {
    orders: { type: 'string', default: '10000' },
    wallets: { type: 'string', default: '1000' },
    'floor-runs': { type: 'string', default: '3' },
    warmup: { type: 'string' },
    'no-market': { type: 'boolean', default: false },
    'pg-url': { type: 'string', default: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const ORDERS = Number(args.orders);
const WALLETS = Number(args.wallets);
const FLOOR_RUNS = Number(args['floor-runs']);
const WARMUP = Number(args.warmup ?? Math.min(2000, ORDERS));

const database = await benchDatabase(args['pg-url'], 'bench_fills');
const config = loadConfig({
  NODE_ENV: 'production',
  PORT: '0',
  LOG_LEVEL: 'silent',
  MARKET_HOURS: 'open',
  MARKET_FEED: 'false',
  SEED_DEMO: 'false',
  DATA_DIR: path.join(os.tmpdir(), 'bench-unused'),
  DATABASE_URL: database.url,
});
const { ctx, database: db, risk } = await boot(config, { memory: false });
const pending = ctx.pending as PendingService;
const tick = (bid: number, ask: number) =>
  ctx.market.book.apply([{ name: 'EUR_USD', bid, ask, closeoutBid: bid, closeoutAsk: ask, time: Date.now() }]);

/** CPU clock ticks (10 ms) each PostgreSQL backend of the bench's database has used so far (Linux /proc). */
async function backendTicks(): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  const rows = (await ctx.db.execute(
    sql`select pid from pg_stat_activity where datname = current_database()`,
  )) as unknown as { rows: Array<{ pid: number }> };
  for (const { pid } of rows.rows) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(pid, Number(fields[11]) + Number(fields[12]));
    } catch {
      // Not Linux, or the backend ended.
    }
  }
  return out;
}

/** Runs `task(k)` for k < n with at most `limit` at once. */
async function pool(n: number, limit: number, task: (k: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < n) await task(next++);
    }),
  );
}
const pct = (sorted: Float64Array, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const ms = (x: number) => `${x.toFixed(1)} ms`;

try {
  console.log(
    `Pending fills: Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(2)}; ` +
      `${ORDERS.toLocaleString('en-US')} orders over ${WALLETS.toLocaleString('en-US')} wallets on PostgreSQL`,
  );
  const customers = await createCustomers(ctx.db, WALLETS);
  tick(1.1, 1.1002);
  let t0 = performance.now();
  const placeLimits = (n: number, price: string) =>
    pool(n, 20, async (k) => {
      const c = customers[k % WALLETS];
      await placePending(ctx, c.id, {
        type: 'buy',
        instrument: 'EUR_USD',
        amount: '1000',
        profit: null,
        loss: null,
        orderType: 'limit',
        price,
        expiry: 'gtc',
      });
    });
  await placeLimits(ORDERS, '1.09950');
  console.log(`placed ${ORDERS} pending orders in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  // A first, smaller burst above them (Buy Limits at 1.0998, reached by an ask of 1.0997): a running server has filled
  // orders before, so each connection of the burst has its statement prepared and planned already.
  await placeLimits(WARMUP, '1.09980');
  t0 = performance.now();
  tick(1.0995, 1.0997);
  await pending.idle();
  console.log(`warm-up: ${WARMUP} orders filled by an earlier tick in ${ms(performance.now() - t0)}`);

  // Each fill's moment: its owner is told once the fill is committed.
  const filledAt: number[] = [];
  const toUser = ctx.realtime.toUser.bind(ctx.realtime);
  ctx.realtime.toUser = (userId, event, payload) => {
    if (event === 'pendingOrdersChanged' && (payload as { status: string }).status === 'filled')
      filledAt.push(performance.now());
    toUser(userId, event, payload);
  };
  const dbBefore = await backendTicks();
  const cpuBefore = process.cpuUsage();
  const tickAt = performance.now();
  tick(1.0992, 1.0994);
  await pending.idle();
  const burstMs = performance.now() - tickAt;
  const cpu = process.cpuUsage(cpuBefore);
  const dbAfter = await backendTicks();
  const fills = Float64Array.from(filledAt, (t) => t - tickAt).sort();

  // The same number of market orders, all sent at once, through the same path.
  const doneAt: number[] = [];
  t0 = performance.now();
  await Promise.all(
    Array.from({ length: args['no-market'] ? 0 : ORDERS }, async (_, k) => {
      const c = customers[k % WALLETS];
      await placeOrder(ctx, c.id, { type: 'buy', instrument: 'EUR_USD', amount: '1000', profit: null, loss: null });
      doneAt.push(performance.now());
    }),
  );
  const market = Float64Array.from(doneAt, (t) => t - t0).sort();

  const floor = await fillFloor(
    database.url,
    customers.map((c) => c.walletId),
    ORDERS,
    FLOOR_RUNS,
  );
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  const floorRow = (what: string, runs: FloorTimes[]) => {
    const byTotal = [...runs].sort((a, b) => a.total - b.total);
    const mid = byTotal[Math.floor((byTotal.length - 1) / 2)];
    return [
      what,
      ms(mid.total),
      `${ms(byTotal[0].total)} – ${ms(byTotal[byTotal.length - 1].total)}`,
      `${mid.insert.toFixed(1)} / ${mid.pending.toFixed(1)} / ${mid.wallets.toFixed(1)} / ${mid.commit.toFixed(1)}`,
    ];
  };

  const table = (head: string[], rows: string[][]) => {
    const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
    const line = (r: string[]) => r.map((v, c) => v.padEnd(widths[c])).join('  ');
    console.log(`\n${line(head)}\n${rows.map(line).join('\n')}`);
  };
  table(
    ['measurement', 'p50', 'p99 (aim ≤ 50 ms for fills)', 'last'],
    [
      [
        `${fills.length} pending orders, from the tick that reached them`,
        ms(pct(fills, 50)),
        ms(pct(fills, 99)),
        ms(fills[fills.length - 1] ?? 0),
      ],
      ...(market.length
        ? [
            [
              `${market.length} market orders, from the moment all were sent`,
              ms(pct(market, 50)),
              ms(pct(market, 99)),
              ms(market[market.length - 1] ?? 0),
            ],
          ]
        : []),
    ],
  );
  if (fills.length !== ORDERS) console.log(`(only ${fills.length} of ${ORDERS} filled)`);
  let dbMs = 0;
  for (const [pid, ticks] of dbAfter) dbMs += (ticks - (dbBefore.get(pid) ?? 0)) * 10;
  console.log(
    `burst: ${ms(burstMs)} from the tick until every fill and its stored notification were in; CPU meanwhile: ` +
      `server ${ms((cpu.user + cpu.system) / 1000)}, database backends ${dbAfter.size ? ms(dbMs) : 'unknown'}`,
  );
  table(
    [
      `floor: bare SQL of ${ORDERS} fills, ${FLOOR_RUNS} runs`,
      'median',
      'min – max',
      'insert / pending / wallets / commit (ms, median run)',
    ],
    [
      floorRow('one transaction, the real tables and their indexes', floor.indexed),
      floorRow('one transaction, copies with every index but no foreign key', floor.keyless),
      floorRow('one transaction, index-free copies of the tables', floor.bare),
      [
        'the real tables, two transactions of half at once',
        ms(median(floor.twoAtOnce)),
        `${ms(Math.min(...floor.twoAtOnce))} – ${ms(Math.max(...floor.twoAtOnce))}`,
        '',
      ],
    ],
  );
  console.log(
    `load average at the end ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
} finally {
  await pending.stop();
  await risk.stop();
  await db.close();
  await database.drop();
}
