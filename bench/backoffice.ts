/**
 * Back-office lists and the dashboard at a broker's scale, on the real server (in this process, over inject so only
 * the server's work is timed): 100,000 customers with real wallets, 1,000,000 orders and 200,000 deposits, then the
 * customers and trades lists (page 1, a search, a deep page, a manager's own customers) and the dashboard for 30 days
 * and for all time, beside a bare `select 1` round trip measured in the same run (the floor of any request).
 * p50 and p95 of each. Aim: lists ≤ 50 ms, dashboard ≤ 200 ms (p95).
 *
 * Customer 360 (docs/decisions.md): the customers list sorted and filtered by balance, equity, first deposit, KYC state
 * and last sign-in, beside the same aim; and the risk engine's equity snapshots (a pass writing 5,000 wallets' floating
 * P/L) beside the bare UPDATE of the same rows.
 *
 *   node --import tsx bench/backoffice.ts [--db=postgres|pglite] [--customers=100000] [--orders=1000000] [--runs=20]
 *                                         [--keep=bench_bo] (PostgreSQL: keep the seeded database under this name and
 *                                          reuse it on the next run, to compare changes quickly)
 */
import { parseArgs } from 'node:util';
import { sql, type SQL } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app.ts';
import { boot } from '../apps/server/src/bootstrap.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { benchDatabase } from './pg-database.ts';
import { customer360Cases, seedCustomer360, snapshotFigures, type ListCase } from './customer-360.ts';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: process.env.BENCH_DB ?? 'postgres' },
    customers: { type: 'string', default: process.env.BENCH_CUSTOMERS ?? '100000' },
    orders: { type: 'string', default: process.env.BENCH_ORDERS ?? '1000000' },
    runs: { type: 'string', default: process.env.BENCH_RUNS ?? '20' },
    'pg-url': { type: 'string', default: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
    keep: { type: 'string' },
  },
});
const CUSTOMERS = Number(args.customers);
const ORDERS = Number(args.orders);
const RUNS = Number(args.runs);

async function database(): Promise<{ url?: string; drop?: () => Promise<void> }> {
  return args.db === 'postgres' ? benchDatabase(args['pg-url'], 'bench_bo', args.keep) : {};
}

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
async function timings(fn: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    times.push(ms(t0));
  }
  times.sort((a, b) => a - b);
  return {
    p50: times[Math.floor(times.length * 0.5)],
    p95: times[Math.min(times.length - 1, Math.ceil(times.length * 0.95) - 1)],
  };
}

const { url, drop } = await database();
const config = loadConfig({
  NODE_ENV: 'production',
  PORT: '0',
  SEED_DEMO: 'true',
  DEMO_ACTIVITY: 'false',
  LOG_LEVEL: 'silent',
  MARKET_FEED: 'false',
  ...(url ? { DATABASE_URL: url } : {}),
});
const { ctx, database: opened, risk } = await boot(config, { memory: !url });
const app = await buildApp({ ctx });
await app.ready();
try {
  const db = ctx.db;
  const one = async <T>(q: SQL) => ((await db.execute(q)) as unknown as { rows: T[] }).rows[0];
  const manager = (await one<{ id: number }>(sql`select id from users where email = 'manager@demo.test'`)).id;
  const instrument = (await one<{ id: number }>(sql`select id from instruments where name = 'EUR_USD'`)).id;

  const seeded =
    (await one<{ n: number }>(sql`select count(*)::int as n from users where email like 'bench%@mail.example.com'`)).n >
    0;
  const t0 = process.hrtime.bigint();
  if (!seeded) await seed();
  async function seed() {
    await db.execute(sql`
      insert into users (full_name, email, password_hash, role_id, is_email_verified, is_active, created_at)
      select 'Bench Customer ' || g, 'bench' || g || '@mail.example.com', 'x', 3, true, g % 40 <> 0, now() - ((g % 365) || ' days')::interval
        from generate_series(1, ${CUSTOMERS}::int) g`);
    await db.execute(sql`
      insert into user_profiles (user_id, phone, country, manager_id)
      select id, '+44 7700 ' || lpad((id % 1000000)::text, 6, '0'), 'Spain', case when id % 10 = 0 then ${manager}::int end
        from users where email like 'bench%@mail.example.com'`);
    await db.execute(sql`
      insert into balances (user_id, mode, currency, balance)
      select id, 'real', 'USD', 100000 from users where email like 'bench%@mail.example.com'`);
    await db.execute(
      sql`create table bench_wallets as select row_number() over (order by b.id) as n, b.id as balance_id, b.user_id from balances b join users u on u.id = b.user_id where u.email like 'bench%@mail.example.com'`,
    );
    await db.execute(sql`create unique index on bench_wallets (n)`);
    for (let from = 1; from <= ORDERS; from += 250_000) {
      const to = Math.min(ORDERS, from + 249_999);
      // 1 in 20 still open; the rest closed within a day of opening, over the past year.
      await db.execute(sql`
        insert into orders (user_id, balance_id, balance_mode, balance_currency, instrument_id, instrument, base_symbol, quote_symbol, kind, type, trade_amount, open_rate, open_bid, open_ask,
                            spread, exchange_rate, margin_used, leverage, close_rate, close_time, pro_loss, close_reason, created_at)
        select w.user_id, w.balance_id, 'real', 'USD', ${instrument}::int, 'EUR_USD', 'EUR', 'USD', 'forex', case when g % 2 = 0 then 'buy' else 'sell' end, 1000, 1.08, 1.0799, 1.0801,
               0.2, 1, 10.8, 100,
               case when g % 20 <> 0 then 1.081 end, case when g % 20 <> 0 then now() - ((g % 365) || ' days')::interval + interval '1 hour' end,
               case when g % 20 <> 0 then (g % 200) - 100 end, case when g % 20 <> 0 then 'manual' end,
               now() - ((g % 365) || ' days')::interval
          from generate_series(${from}::int, ${to}::int) g join bench_wallets w on w.n = 1 + g % ${CUSTOMERS}::int`);
    }
    await db.execute(sql`
    insert into deposits (user_id, balance_id, gateway, amount, fee, total, currency, status, reference, created_at)
    select w.user_id, w.balance_id, 'stripe', 100 + g % 900, 0, 100 + g % 900, 'USD', case when g % 10 = 0 then 'pending' else 'approved' end, 'BENCH-' || g,
           now() - ((g % 365) || ' days')::interval
      from generate_series(1, ${Math.floor(ORDERS / 5)}::int) g join bench_wallets w on w.n = 1 + g % ${CUSTOMERS}::int`);
    await db.execute(sql`drop table bench_wallets`);
    for (const table of ['users', 'user_profiles', 'balances', 'orders', 'deposits'])
      await db.execute(sql.raw(`vacuum analyze ${table}`));
  }
  // Customer 360 figures (KYC states, sign-ins, balances, floating P/L) on the bench's customers, once per database.
  const t360 = process.hrtime.bigint();
  if (await seedCustomer360(db)) console.log(`customer 360 figures written in ${ms(t360).toFixed(0)} ms`);
  // A kept database may just have been migrated (rows rewritten): the tables the lists read are timed in steady state,
  // vacuumed and analysed as autovacuum would leave them.
  if (seeded)
    for (const table of ['users', 'user_profiles', 'balances']) await db.execute(sql.raw(`vacuum analyze ${table}`));
  console.log(
    `back-office bench on ${args.db}: ${CUSTOMERS.toLocaleString('en-US')} customers, ${ORDERS.toLocaleString('en-US')} orders, ${Math.floor(ORDERS / 5).toLocaleString('en-US')} deposits ${seeded ? 'reused' : `written in ${ms(t0).toFixed(0)} ms`}\n`,
  );

  const signIn = async (email: string) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: 'Demo12345!' },
    });
    const set = res.headers['set-cookie'];
    return (Array.isArray(set) ? set : [set ?? '']).find((c) => c.startsWith('sid='))!.split(';')[0];
  };
  const cookies = { admin: await signIn('admin@demo.test'), manager: await signIn('manager@demo.test') };
  const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
  const someone = (
    await one<{ id: number }>(
      sql`select id from users where email = 'bench' || least(4242, ${CUSTOMERS}::int) || '@mail.example.com'`,
    )
  ).id;
  const cases: ListCase[] = [
    ['customers, page 1', 'admin', '/admin/customers/api/all', 50],
    ['customers, search', 'admin', '/admin/customers/api/all?search=bench4242%40', 50],
    ['customers, inactive', 'admin', '/admin/customers/api/inactive', 50],
    ['customers, page 3000', 'admin', '/admin/customers/api/all?page=3000', 50],
    ['customers, manager', 'manager', '/admin/customers/api/all', 50],
    ['trades all, page 1', 'admin', '/admin/trades/api/all', 50],
    ['trades open, page 1', 'admin', '/admin/trades/api/open', 50],
    ['trades closed, page 1', 'admin', '/admin/trades/api/closed', 50],
    ['trades, page 3000', 'admin', '/admin/trades/api/all?page=3000', 50],
    ['trades of a customer', 'admin', `/admin/trades/api/all/${someone}`, 50],
    ['trades, manager', 'manager', '/admin/trades/api/all', 50],
    ['dashboard, 30 days', 'admin', `/admin/dashboard?from=${day(30)}&to=${day(0)}`, 200],
    // All time reads every trade, deposit and withdrawal ever made: printed for scale, no aim (the aim is for 30 days).
    ['dashboard, all time', 'admin', '/admin/dashboard', 0],
    ...customer360Cases(db, day, manager),
  ];
  const floor = await timings(async () => void (await db.execute(sql`select 1`)));
  console.log(
    `${RUNS} runs each (ms); baseline: a bare \`select 1\` round trip p50 ${floor.p50.toFixed(2)}, p95 ${floor.p95.toFixed(2)}`,
  );
  console.log(
    `  ${'request'.padEnd(38)} ${'p50'.padStart(8)} ${'p95'.padStart(8)}   ${'bare SQL p50'.padStart(12)} ${'p95'.padStart(8)}   ${'aim p95'.padStart(8)}`,
  );
  for (const [label, who, path, aim, bareSql] of cases) {
    const server = await timings(async () => {
      const res = await app.inject({ method: 'GET', url: `/api${path}`, headers: { cookie: cookies[who] } });
      if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
    });
    // The bare SQL of the same page (Customer 360 cases): the page and its whole count through the same joins.
    const bare = bareSql ? await timings(bareSql) : null;
    const verdict =
      aim === 0 ? `${'-'.padStart(8)}` : `${`≤ ${aim}`.padStart(8)} ${server.p95 <= aim ? 'met' : 'MISSED'}`;
    const floorOf = bare ? `${bare.p50.toFixed(1).padStart(12)} ${bare.p95.toFixed(1).padStart(8)}` : ' '.repeat(21);
    console.log(
      `  ${label.padEnd(38)} ${server.p50.toFixed(1).padStart(8)} ${server.p95.toFixed(1).padStart(8)}   ${floorOf}   ${verdict}`,
    );
  }

  // The risk engine's equity snapshots: what one pass costs the database and the event loop.
  await snapshotFigures(ctx, CUSTOMERS);

  // Whole-list CSV exports (streamed as the screen's list is read, 1,000 rows a batch), beside one bare statement
  // reading the same rows' ids and columns; once each, as an export is a rare and long request.
  console.log(
    `\n  ${'export (whole list)'.padEnd(24)} ${'rows'.padStart(10)} ${'s'.padStart(8)} ${'rows/s'.padStart(10)}   bare SQL s`,
  );
  const exports: Array<[string, string, SQL]> = [
    [
      'trades, all',
      '/admin/trades/api/all?format=csv',
      sql`select o.id, o.user_id, u.full_name, u.email, o.instrument, o.type, o.trade_amount, o.open_rate, o.close_rate, o.pro_loss, o.created_at from orders o join users u on u.id = o.user_id order by o.id desc`,
    ],
    [
      'customers, all',
      '/admin/customers/api/all?format=csv',
      sql`select u.id, u.full_name, u.email, p.phone, p.country, u.created_at from users u left join user_profiles p on p.user_id = u.id where u.role_id = 3 order by u.id desc`,
    ],
  ];
  for (const [label, path, bare] of exports) {
    const t1 = process.hrtime.bigint();
    const res = await app.inject({ method: 'GET', url: `/api${path}`, headers: { cookie: cookies.admin } });
    if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    const took = ms(t1) / 1000;
    const rows = res.body.split('\r\n').length - 2;
    const t2 = process.hrtime.bigint();
    await db.execute(bare);
    const bareS = ms(t2) / 1000;
    console.log(
      `  ${label.padEnd(24)} ${rows.toLocaleString('en-US').padStart(10)} ${took.toFixed(1).padStart(8)} ${Math.round(
        rows / took,
      )
        .toLocaleString('en-US')
        .padStart(10)}   ${bareS.toFixed(1).padStart(10)}`,
    );
  }
} finally {
  await risk.stop();
  await app.close();
  await opened.close();
  await drop?.();
}
