/**
 * What keeping the partners' roll-ups by a trigger costs the accrual: the accrual's statement (a batch's levels
 * inserted, the wallets credited, a ledger entry per level) timed with the daily roll-up and clients' first and last
 * deals added by the statement's own CTEs (as the accrual did before migration 0038, its triggers disabled for those
 * rounds) and by the AFTER INSERT statement trigger, alternated on one database over a history of 100,000 deals
 * (300,000 rows over the last three days), for one deal (three rows) and 250 deals (750 rows) a statement; then the
 * roll-ups are checked equal to the rows.
 *
 *   node --import tsx bench/partners-rollup.ts [--db=postgres|pglite] [--rounds=16] [--per-round=25]
 *                                             [--pg-url=postgres://postgres@127.0.0.1:5432/postgres]
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { type SQL, sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { expectRollUpsMatchDetail } from '../apps/server/src/modules/partners/days-testing.ts';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'postgres' },
    rounds: { type: 'string', default: '16' },
    'per-round': { type: 'string', default: '25' },
    'pg-url': { type: 'string', default: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const ROUNDS = Number(args.rounds);
const PER = Number(args['per-round']);
const CLIENTS = 2000;

const oldDays = (src: SQL) => sql`
    insert into partner_commission_days as d (partner_id, day, currency, amount, lots, entries)
    select c.partner_id, (c.accrued_at at time zone 'UTC')::date, c.currency, sum(c.amount),
           sum(case when c.level = 1 and c.kind = 'trade' and c.deal_id is not null then c.lots
                    when c.level = 1 and c.kind = 'reversal' then -c.lots else 0 end),
           count(*)::int
      from ${src} c
     group by 1, 2, 3
    on conflict (partner_id, day, currency) do update
       set amount = d.amount + excluded.amount, lots = d.lots + excluded.lots, entries = d.entries + excluded.entries`;
const oldTraders = (src: SQL) => sql`
    insert into partner_traders as t (partner_id, customer_id, first_at, last_at)
    select c.partner_id, c.customer_id, min(c.accrued_at), max(c.accrued_at)
      from ${src} c
     where c.level = 1 and c.kind = 'trade' and c.deal_id is not null
     group by 1, 2
     order by 1, 2
    on conflict (partner_id, customer_id) do update
       set first_at = least(t.first_at, excluded.first_at), last_at = greatest(t.last_at, excluded.last_at)
     where excluded.first_at < t.first_at or excluded.last_at > t.last_at`;

async function main() {
  let url: string | undefined;
  let admin: pg.Client | null = null;
  let dbName = '';
  if (args.db === 'postgres') {
    admin = new pg.Client({ connectionString: args['pg-url'] });
    await admin.connect();
    dbName = `bench_rollup_${randomBytes(4).toString('hex')}`;
    await admin.query(`create database ${dbName}`);
    const u = new URL(args['pg-url']);
    u.pathname = `/${dbName}`;
    url = u.toString();
  }
  const database = await openDatabase(url ? { url } : { dataDir: null });
  const db = database.db;
  const one = async <T>(q: SQL) => ((await db.execute(q)) as unknown as { rows: T[] }).rows[0];
  try {
    const plan = await one<{ id: number }>(sql`insert into partner_plans (name) values ('Bench IB') returning id`);
    const version = await one<{ id: number }>(sql`
      insert into partner_plan_versions (plan_id, effective_from, name, currency, per_lot, spread_share, commission_share,
                                         cpa, cpa_min_deposit, levels)
      values (${plan.id}, to_timestamp(0), 'Bench IB', 'USD', '{"forex":"10"}', 20, 50, 0, 0, '["100","20","5"]')
      returning id`);
    const partners: number[] = [];
    const wallets: number[] = [];
    for (const name of ['a', 'b', 'c']) {
      const p = await one<{ id: number }>(sql`
        insert into users (full_name, email, password_hash, role_id, is_email_verified)
        values (${`Bench partner ${name}`}, ${`bench-partner-${name}@bench.test`}, 'x', 4, true) returning id`);
      partners.push(p.id);
      wallets.push(
        (
          await one<{ id: number }>(
            sql`insert into balances (user_id, mode, currency) values (${p.id}, 'real', 'USD') returning id`,
          )
        ).id,
      );
    }
    await db.execute(sql`
      insert into users (full_name, email, password_hash, role_id, is_email_verified)
      select 'Bench client ' || g, 'bench-client-' || g || '@bench.test', 'x', 3, true from generate_series(1, ${CLIENTS}::int) g`);
    const first = (
      await one<{ id: number }>(sql`select min(id)::int as id from users where email like 'bench-client-%'`)
    ).id;

    let nextDeal = 1;
    /** The accrual's statement for `deals` deals (three levels each), with or without its own roll-up CTEs. */
    const statement = (deals: number, ownRollUps: boolean) => {
      const from = nextDeal;
      nextDeal += deals;
      const rollUps = ownRollUps ? sql`days as (${oldDays(sql`ins`)}), traders as (${oldTraders(sql`ins`)}),` : sql``;
      return sql`
        with input (deal_id, level, customer_id, partner_id, version_id, wallet_id, instrument, lots, base, amount,
                    currency, accrued_at) as (
          select d, l.level, ${first}::int + d % ${CLIENTS}, l.partner, ${version.id}::int, l.wallet, 'EUR_USD'::text,
                 (0.1 * (1 + d % 20))::numeric, (1 + d % 20)::numeric, round((1 + d % 20) * l.pct / 100.0, 2),
                 'USD'::text, now() - (d % 3) * interval '1 day'
            from generate_series(${from}::int, ${from + deals - 1}::int) d
           cross join (values (1, ${partners[2]}::int, ${wallets[2]}::int, 100), (2, ${partners[1]}::int, ${wallets[1]}::int, 20),
                              (3, ${partners[0]}::int, ${wallets[0]}::int, 5)) as l(level, partner, wallet, pct)),
        ins as (
          insert into partner_commissions (kind, deal_id, level, customer_id, partner_id, plan_version_id, balance_id,
                                           instrument, lots, base, amount, currency, accrued_at)
          select 'trade', deal_id, level, customer_id, partner_id, version_id, wallet_id, instrument, lots, base, amount,
                 currency, accrued_at from input
          on conflict do nothing
          returning kind, deal_id, level, customer_id, partner_id, balance_id, amount, lots, instrument, currency,
                    accrued_at
        ), ${rollUps} sums as (
          select balance_id, sum(amount) as total, count(*)::int as n from ins group by balance_id
        ), upd as (
          update balances b set balance = b.balance + sums.total from sums where b.id = sums.balance_id
          returning b.id, b.balance as after, sums.total, sums.n
        ), ledger as (
          insert into ledger_entries (balance_id, kind, amount, balance_after, ref_type, ref_id, note)
          select ins.balance_id, 'partner_commission', ins.amount,
                 upd.after - upd.total
                   + sum(ins.amount) over (partition by ins.balance_id order by ins.deal_id, ins.level
                                           rows between unbounded preceding and current row),
                 'order', ins.deal_id, 'Level ' || ins.level || ' commission on deal #' || ins.deal_id
            from ins join upd on upd.id = ins.balance_id
        )
        select count(*) from upd`;
    };
    const triggers = async (on: boolean) => {
      const verb = on ? 'enable' : 'disable';
      await db.execute(sql.raw(`alter table partner_commissions ${verb} trigger partner_commissions_roll_up`));
      await db.execute(
        sql.raw(`alter table partner_commission_days ${verb} trigger partner_commission_days_by_trigger_only`),
      );
      await db.execute(sql.raw(`alter table partner_traders ${verb} trigger partner_traders_by_trigger_only`));
    };
    // Warm-up and a history: 100,000 deals already accrued (the roll-up rows and traders exist, as in production).
    await triggers(true);
    for (let i = 0; i < 10; i++) await db.execute(statement(10_000, false));
    await db.execute(sql.raw('vacuum analyze partner_commissions'));
    await db.execute(sql.raw('vacuum analyze ledger_entries'));
    console.log(
      `${args.db}: ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')} load at start`,
    );
    for (const deals of [1, 250]) {
      const per: Record<'cte' | 'trigger', number[]> = { cte: [], trigger: [] };
      for (let r = 0; r < ROUNDS; r++)
        for (const mode of r % 2 === 0 ? (['cte', 'trigger'] as const) : (['trigger', 'cte'] as const)) {
          await triggers(mode === 'trigger');
          const s = performance.now();
          for (let i = 0; i < PER; i++) await db.execute(statement(deals, mode === 'cte'));
          per[mode].push((performance.now() - s) / PER);
        }
      await triggers(true);
      const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      const c = med(per.cte);
      const t = med(per.trigger);
      console.log(
        `${args.db} ${deals} deal(s) = ${deals * 3} rows a statement: roll-ups by the statement's CTEs ${c.toFixed(2)} ms, by the trigger ${t.toFixed(2)} ms (median of ${ROUNDS} rounds of ${PER}; ${(((t - c) / c) * 100).toFixed(1)} %, ${(((t - c) * 1000) / (deals * 3)).toFixed(1)} µs a row)`,
      );
      console.log(`   rounds cte: ${per.cte.map((x) => x.toFixed(2)).join(' ')}`);
      console.log(`   rounds trg: ${per.trigger.map((x) => x.toFixed(2)).join(' ')}`);
    }
    await expectRollUpsMatchDetail(db);
    console.log(
      `${args.db}: roll-ups equal to the rows; ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')} load at end`,
    );
  } finally {
    await database.close();
    if (admin) {
      await admin.query(`drop database if exists ${dbName} with (force)`);
      await admin.end();
    }
  }
}

await main();
