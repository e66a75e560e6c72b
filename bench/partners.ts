/**
 * The partner portal over a million accrued commissions on PostgreSQL: a fresh database migrated by the product's own
 * boot, a three-level tree (A above B above C), 2,000 clients of C and 1,000,000 commission rows over a year (a third
 * per level) inserted by plain SQL, 100,000 deals a statement: their daily roll-up and each client's first and last
 * deal follow by the database's own trigger, as for any writer, and are checked equal to the rows grouped afresh. Then
 * the summary (`partnerSummary`, what GET /affiliate/partner/summary answers) of each partner over 30 days, a year and
 * 30 days half a year ago, p50 and p95 of 20 runs, beside the bare SQL of the commission by currency over the rows and
 * the same figures grouped from the rows (the dashboard's query before the roll-up). The summary is checked equal to
 * the rows' figures first.
 *
 *   node --import tsx bench/partners.ts [--rows=1000000] [--runs=20] [--pg-url=postgres://postgres@127.0.0.1:5432/postgres]
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { boot } from '../apps/server/src/bootstrap.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import {
  expectRollUpsMatchDetail,
  expectSummaryMatchesDetail,
  figuresFromDetail,
} from '../apps/server/src/modules/partners/days-testing.ts';
import { partnerSummary, periodOf } from '../apps/server/src/modules/partners/reports.ts';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '20' },
    /** Keep the database afterwards (its name is printed), to look at plans with EXPLAIN. */
    keep: { type: 'boolean', default: false },
    'pg-url': { type: 'string', default: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const ROWS = Number(args.rows);
const RUNS = Number(args.runs);
const CLIENTS = 2000;

const load = () =>
  `load average ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`;
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

async function main() {
  const admin = new pg.Client({ connectionString: args['pg-url'] });
  await admin.connect();
  const dbName = `bench_partners_${randomBytes(4).toString('hex')}`;
  await admin.query(`create database ${dbName}`);
  const u = new URL(args['pg-url']);
  u.pathname = `/${dbName}`;
  const config = loadConfig({
    NODE_ENV: 'production',
    PORT: '0',
    LOG_LEVEL: 'silent',
    MARKET_FEED: 'false',
    SEED_DEMO: 'false',
    DATA_DIR: path.join(os.tmpdir(), 'bench-unused'),
    DATABASE_URL: u.toString(),
  });
  const { ctx, database, risk } = await boot(config, { memory: false });
  const db = ctx.db;
  const one = async <T>(q: ReturnType<typeof sql>) => ((await db.execute(q)) as unknown as { rows: T[] }).rows[0];
  try {
    const t0 = performance.now();
    const plan = await one<{ id: number }>(sql`insert into partner_plans (name) values ('Bench IB') returning id`);
    const version = await one<{ id: number }>(sql`
      insert into partner_plan_versions (plan_id, effective_from, name, currency, per_lot, spread_share, commission_share,
                                         cpa, cpa_min_deposit, levels)
      values (${plan.id}, to_timestamp(0), 'Bench IB', 'USD', '{"forex":"10"}', 20, 50, 0, 0, '["100","20","5"]')
      returning id`);
    const partners: number[] = [];
    for (const name of ['a', 'b', 'c']) {
      const p = await one<{ id: number }>(sql`
        insert into users (full_name, email, password_hash, role_id, is_email_verified)
        values (${`Bench partner ${name}`}, ${`bench-partner-${name}@bench.test`}, 'x', 4, true) returning id`);
      await db.execute(sql`insert into partner_links (user_id, plan_id, parent_id)
                           values (${p.id}, ${plan.id}, ${partners.at(-1) ?? null})`);
      partners.push(p.id);
    }
    const wallets: number[] = [];
    for (const id of partners)
      wallets.push(
        (
          await one<{ id: number }>(
            sql`insert into balances (user_id, mode, currency) values (${id}, 'real', 'USD') returning id`,
          )
        ).id,
      );
    await db.execute(sql`
      insert into users (full_name, email, password_hash, role_id, is_email_verified)
      select 'Bench client ' || g, 'bench-client-' || g || '@bench.test', 'x', 3, true from generate_series(1, ${CLIENTS}::int) g`);
    await db.execute(sql`
      insert into partner_clients (customer_id, partner_id, reason, assigned_at)
      select id, ${partners[2]}, 'bench', now() - interval '2 years' from users where email like 'bench-client-%'`);
    const [first] = (
      (await db.execute(sql`select min(id)::int as id from users where email like 'bench-client-%'`)) as unknown as {
        rows: Array<{ id: number }>;
      }
    ).rows;
    // Deal d pays level 1 to C, 2 to B, 3 to A; deals spread over the last year.
    const deals = Math.floor(ROWS / 3);
    for (let from = 1; from <= deals; from += 100_000) {
      const to = Math.min(deals, from + 99_999);
      await db.execute(sql`
        insert into partner_commissions (kind, deal_id, customer_id, level, partner_id, plan_version_id, balance_id,
                                         instrument, lots, base, amount, currency, accrued_at)
        select 'trade', d, ${first.id} + d % ${CLIENTS}, l.level, l.partner, ${version.id}, l.wallet, 'EUR_USD',
               0.1 * (1 + d % 20), 1 + d % 20, round((1 + d % 20) * l.pct / 100.0, 2), 'USD',
               now() - (d::bigint * 31536 / ${deals}::bigint) * interval '1000 seconds'
          from generate_series(${from}::int, ${to}::int) d
          cross join (values (1, ${partners[2]}::int, ${wallets[2]}::int, 100), (2, ${partners[1]}::int, ${wallets[1]}::int, 20),
                             (3, ${partners[0]}::int, ${wallets[0]}::int, 5)) as l(level, partner, wallet, pct)`);
    }
    for (const table of [
      'partner_commissions',
      'partner_commission_days',
      'partner_traders',
      'partner_clients',
      'users',
      'balances',
    ])
      await db.execute(sql.raw(`vacuum analyze ${table}`));
    console.log(`seeded ${deals * 3} commission rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const t1 = performance.now();
    await expectRollUpsMatchDetail(db);
    console.log(
      `roll-ups equal to the rows grouped afresh (checked in ${((performance.now() - t1) / 1000).toFixed(1)} s)`,
    );

    const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
    console.log(load());
    console.log(
      '\npartner  period    summary p50 ms  p95 ms   bare SQL p50 ms  p95 ms   rows grouped p50 ms  p95 ms   aim p95 100 ms',
    );
    for (const [i, partnerId] of partners.entries())
      for (const [label, q] of [
        ['30 days', {}],
        ['a year', { dateStart: day(364), dateEnd: day(0) }],
        // Every client traded before and after it: each one's deals are probed for one within it.
        ['past 30d', { dateStart: day(209), dateEnd: day(180) }],
      ] as const) {
        const p = periodOf(q);
        await expectSummaryMatchesDetail(db, partnerId, p);
        const timed: number[] = [];
        const bare: number[] = [];
        const grouped: number[] = [];
        const time = async (into: number[], run: () => Promise<unknown>) => {
          for (let r = 0; r < RUNS; r++) {
            const s = performance.now();
            await run();
            into.push(performance.now() - s);
          }
        };
        await time(timed, () => partnerSummary(db, partnerId, p));
        await time(bare, () =>
          db.execute(sql`
            select currency, sum(amount) from partner_commissions
             where partner_id = ${partnerId} and accrued_at >= ${p.from.toISOString()}::timestamptz
               and accrued_at < ${p.to.toISOString()}::timestamptz group by currency`),
        );
        await time(grouped, () => figuresFromDetail(db, partnerId, p));
        const f = (x: number) => x.toFixed(1).padStart(7);
        console.log(
          `${'ABC'[i]}        ${label.padEnd(8)}  ${f(pct(timed, 0.5))}  ${f(pct(timed, 0.95))}   ${f(pct(bare, 0.5))}  ${f(pct(bare, 0.95))}   ${f(pct(grouped, 0.5))}      ${f(pct(grouped, 0.95))}   ${pct(timed, 0.95) <= 100 ? 'met' : 'MISSED'}`,
        );
      }
    console.log(load());
  } finally {
    await risk.stop();
    await ctx.jobs.stop();
    await database.close();
    if (args.keep) console.log(`kept database ${dbName}`);
    else await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
}

await main();
