/**
 * Tick to fill on PostgreSQL: 10,000 Buy Limit orders on EUR/USD over 1,000 wallets (10 each) that one tick reaches,
 * each timed from the tick to its fill committed (the moment its owner is told `pendingOrdersChanged: filled`); beside
 * it, in the same run, the same 10,000 orders sent at once as market orders through the same order path, each timed
 * from the common start to its position committed.
 *
 *   node --import tsx bench/pending-fills.ts [--orders=10000] [--wallets=1000]     (or: npm run pending-fills -w bench)
 *
 * Aim (issue 22): p99 from the tick to a fill ≤ 50 ms.
 */
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { boot } from '../apps/server/src/bootstrap.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { placeOrder } from '../apps/server/src/modules/trading/place-order.ts';
import { placePending } from '../apps/server/src/modules/trading/pending/place-pending.ts';
import type { PendingService } from '../apps/server/src/modules/trading/pending/pending-service.ts';
import { createCustomers } from './customers.ts';
import { benchDatabase } from './pg-database.ts';

const { values: args } = parseArgs({
  options: {
    orders: { type: 'string', default: '10000' },
    wallets: { type: 'string', default: '1000' },
    'pg-url': { type: 'string', default: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const ORDERS = Number(args.orders);
const WALLETS = Number(args.wallets);

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
  await pool(ORDERS, 20, async (k) => {
    const c = customers[k % WALLETS];
    await placePending(ctx, c.id, {
      type: 'buy',
      instrument: 'EUR_USD',
      amount: '1000',
      profit: null,
      loss: null,
      orderType: 'limit',
      price: '1.09950',
      expiry: 'gtc',
    });
  });
  console.log(`placed ${ORDERS} pending orders in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // Each fill's moment: its owner is told once the fill is committed.
  const filledAt: number[] = [];
  const toUser = ctx.realtime.toUser.bind(ctx.realtime);
  ctx.realtime.toUser = (userId, event, payload) => {
    if (event === 'pendingOrdersChanged' && (payload as { status: string }).status === 'filled')
      filledAt.push(performance.now());
    toUser(userId, event, payload);
  };
  const tickAt = performance.now();
  tick(1.0992, 1.0994);
  await pending.idle();
  const fills = Float64Array.from(filledAt, (t) => t - tickAt).sort();

  // The same number of market orders, all sent at once, through the same path.
  const doneAt: number[] = [];
  t0 = performance.now();
  await Promise.all(
    Array.from({ length: ORDERS }, async (_, k) => {
      const c = customers[k % WALLETS];
      await placeOrder(ctx, c.id, { type: 'buy', instrument: 'EUR_USD', amount: '1000', profit: null, loss: null });
      doneAt.push(performance.now());
    }),
  );
  const market = Float64Array.from(doneAt, (t) => t - t0).sort();

  const rows = [
    [
      `${fills.length} pending orders, from the tick that reached them`,
      ms(pct(fills, 50)),
      ms(pct(fills, 99)),
      ms(fills[fills.length - 1] ?? 0),
    ],
    [
      `${market.length} market orders, from the moment all were sent`,
      ms(pct(market, 50)),
      ms(pct(market, 99)),
      ms(market[market.length - 1] ?? 0),
    ],
  ];
  const head = ['measurement', 'p50', 'p99 (aim ≤ 50 ms for fills)', 'last'];
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const line = (r: string[]) => r.map((v, c) => v.padEnd(widths[c])).join('  ');
  console.log(`\n${line(head)}\n${rows.map(line).join('\n')}`);
  if (fills.length !== ORDERS) console.log(`(only ${fills.length} of ${ORDERS} filled)`);
} finally {
  await pending.stop();
  await risk.stop();
  await db.close();
  await database.drop();
}
