import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SQL, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { expectRollUpsMatchDetail } from './days-testing.ts';

/**
 * The partners' daily roll-up (partner_commission_days) and clients' first and last deals (partner_traders) are kept
 * by the database (migration 0038), whatever writes the commissions: here plain SQL with none of the accrual's code, as
 * an instance on older code would write them during a rolling deploy, and the statements of the code that added to the
 * tables itself (0036, 0037), which must not count anything twice. Commission rows cannot be changed nor deleted.
 */

let t: TestApp;
let partners: number[];
let clients: number[];
let versionId: number;
let wallets: number[];

const rowsOf = <T>(r: unknown): T[] => (r as { rows: T[] }).rows;
const one = async <T>(q: SQL) => rowsOf<T>(await t.ctx.db.execute(q))[0];

/** `n` commission rows in one INSERT, as any writer could send it: deals from `firstDeal`, three levels each. */
const plainInsert = (firstDeal: number, deals: number, at: string) => sql`
  insert into partner_commissions (kind, deal_id, customer_id, level, partner_id, plan_version_id, balance_id,
                                   instrument, lots, base, amount, currency, accrued_at)
  select 'trade', d, (${`{${clients.join(',')}}`}::int[])[1 + d % ${clients.length}], l.level, l.partner, ${versionId},
         l.wallet, 'EUR_USD', 0.01 * (1 + d % 7), 3.5, round(3.5 * l.pct / 100.0, 2), 'USD',
         ${at}::timestamptz + (d % 48) * interval '1 hour'
    from generate_series(${firstDeal}::int, ${firstDeal + deals - 1}::int) d
   cross join (values (1, ${partners[0]}::int, ${wallets[0]}::int, 100), (2, ${partners[1]}::int, ${wallets[1]}::int, 20),
                      (3, ${partners[2]}::int, ${wallets[2]}::int, 5)) as l(level, partner, wallet, pct)`;

const days = async (partnerId: number) =>
  rowsOf<{ day: string; amount: string; lots: string; entries: number }>(
    await t.ctx.db.execute(sql`
      select to_char(day, 'YYYY-MM-DD') as day, amount::text, lots::text, entries from partner_commission_days
       where partner_id = ${partnerId} order by day`),
  );
const traderOf = (customerId: number) =>
  one<{ first_at: string; last_at: string }>(sql`
    select to_char(first_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') as first_at,
           to_char(last_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') as last_at
      from partner_traders where partner_id = ${partners[0]} and customer_id = ${customerId}`);

beforeAll(async () => {
  t = await createTestApp({ MARKET_FEED: 'false' });
  const plan = await one<{ id: number }>(sql`insert into partner_plans (name) values ('Trigger IB') returning id`);
  versionId = (
    await one<{ id: number }>(sql`
      insert into partner_plan_versions (plan_id, effective_from, name, currency, per_lot, spread_share, commission_share,
                                         cpa, cpa_min_deposit, levels)
      values (${plan.id}, to_timestamp(0), 'Trigger IB', 'USD', '{"forex":"10"}', 0, 0, 0, 0, '["100","20","5"]')
      returning id`)
  ).id;
  const users = async (prefix: string, role: number, n: number) =>
    rowsOf<{ id: number }>(
      await t.ctx.db.execute(sql`
        insert into users (full_name, email, password_hash, role_id, is_email_verified)
        select ${prefix} || ' ' || g, ${prefix} || '-' || g || '@trigger.test', 'x', ${role}, true
          from generate_series(1, ${n}::int) g
        returning id`),
    ).map((r) => r.id);
  partners = await users('trigger-partner', 4, 3);
  clients = await users('trigger-client', 3, 5);
  wallets = [];
  for (const id of partners)
    wallets.push(
      (
        await one<{ id: number }>(
          sql`insert into balances (user_id, mode, currency) values (${id}, 'real', 'USD') returning id`,
        )
      ).id,
    );
});
afterAll(() => t.close());

describe('partners: the roll-ups follow the commission rows in the database', () => {
  it('follows 1,500 rows inserted by plain SQL in one statement, without any of the accrual code', async () => {
    const at = '2026-03-01T00:00:00Z';
    await t.ctx.db.execute(plainInsert(900_001, 500, at));
    // 500 deals over two UTC days: the level-1 partner's volume, the others earn on it at levels 2 and 3.
    const own = await days(partners[0]);
    expect(own.map((d) => d.day)).toEqual(['2026-03-01', '2026-03-02']);
    expect(own.reduce((n, d) => n + d.entries, 0)).toBe(500);
    expect((await days(partners[2])).every((d) => Number(d.lots) === 0)).toBe(true);
    // Each client's deals spread over the 48 hours.
    expect(await traderOf(clients[0])).toEqual({ first_at: '2026-03-01 00:00', last_at: '2026-03-02 23:00' });
    await expectRollUpsMatchDetail(t.ctx.db);
  });

  it('adds a later batch to the days it shares, moves first and last deals, and takes CPA and reversals in', async () => {
    await t.ctx.db.execute(plainInsert(900_501, 100, '2026-03-02T00:00:00Z'));
    // A client's deal before their first, one after their last, one between: only the first two move anything.
    for (const [deal, at] of [
      [900_701, '2026-01-15T10:00:00Z'],
      [900_702, '2026-06-01T08:00:00Z'],
      [900_703, '2026-03-01T12:30:00Z'],
    ] as const)
      await t.ctx.db.execute(sql`
        insert into partner_commissions (kind, deal_id, customer_id, level, partner_id, plan_version_id, balance_id,
                                         instrument, lots, base, amount, currency, accrued_at)
        values ('trade', ${deal}, ${clients[0]}, 1, ${partners[0]}, ${versionId}, ${wallets[0]}, 'EUR_USD', 0.1, 1, 1,
                'USD', ${at}::timestamptz)`);
    expect(await traderOf(clients[0])).toEqual({ first_at: '2026-01-15 10:00', last_at: '2026-06-01 08:00' });
    // A CPA and the void of one deal (its three levels), each a statement of its own as the product writes them.
    await t.ctx.db.execute(sql`
      insert into partner_commissions (kind, deposit_id, customer_id, level, partner_id, plan_version_id, balance_id,
                                       base, amount, currency, accrued_at)
      values ('cpa', 77, ${clients[1]}, 1, ${partners[0]}, ${versionId}, ${wallets[0]}, 100, 100, 'USD',
              '2026-03-02T12:00:00Z')`);
    await t.ctx.db.execute(sql`
      insert into partner_commissions (kind, deal_id, customer_id, level, partner_id, plan_version_id, balance_id,
                                       instrument, lots, base, amount, currency, accrued_at)
      select 'reversal', deal_id, customer_id, level, partner_id, plan_version_id, balance_id, instrument, lots, base,
             -amount, currency, '2026-03-05T09:00:00Z'
        from partner_commissions where deal_id = 900001 and kind = 'trade'`);
    // The void's day: the level-1 partner's commission and volume on the deal (0.05 lots) taken off.
    expect((await days(partners[0])).find((d) => d.day === '2026-03-05')).toEqual({
      day: '2026-03-05',
      amount: '-3.50000000',
      lots: '-0.05000000',
      entries: 1,
    });
    await expectRollUpsMatchDetail(t.ctx.db);
  });

  it('runs its two upserts once per statement, not once per row', async () => {
    const calls = await t.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`set local track_functions = 'pl'`);
      await tx.execute(plainInsert(901_001, 334, '2026-04-01T00:00:00Z'));
      return rowsOf<{ n: number }>(
        await tx.execute(sql`select pg_stat_get_xact_function_calls('partner_commissions_roll_up'::regproc)::int as n`),
      )[0].n;
    });
    expect(calls).toBe(1);
    await expectRollUpsMatchDetail(t.ctx.db);
  });

  it('counts nothing twice when a writer still adds to the roll-ups itself (the code before the trigger)', async () => {
    // The accrual's statement as 0036 and 0037 wrote it: the levels inserted, then added to both tables by the statement.
    await t.ctx.db.execute(sql`
      with ins as (${plainInsert(902_001, 50, '2026-03-02T00:00:00Z')} returning *),
      days as (
        insert into partner_commission_days as d (partner_id, day, currency, amount, lots, entries)
        select c.partner_id, (c.accrued_at at time zone 'UTC')::date, c.currency, sum(c.amount),
               sum(case when c.level = 1 and c.kind = 'trade' and c.deal_id is not null then c.lots else 0 end),
               count(*)::int
          from ins c group by 1, 2, 3
        on conflict (partner_id, day, currency) do update
           set amount = d.amount + excluded.amount, lots = d.lots + excluded.lots, entries = d.entries + excluded.entries
      ), traders as (
        insert into partner_traders as t (partner_id, customer_id, first_at, last_at)
        select c.partner_id, c.customer_id, min(c.accrued_at) - interval '1 year', max(c.accrued_at) from ins c
         where c.level = 1 group by 1, 2
        on conflict (partner_id, customer_id) do update set first_at = least(t.first_at, excluded.first_at)
      )
      select count(*) from ins`);
    // The CPA's and the reversal's separate statement after their insert, and a hand-made row.
    await t.ctx.db.execute(sql`
      update partner_commission_days set amount = amount + 1000, entries = entries + 1 where partner_id = ${partners[1]}`);
    await t.ctx.db.execute(sql`
      insert into partner_commission_days (partner_id, day, currency, amount, lots, entries)
      values (${partners[1]}, '2020-01-01', 'USD', 1, 0, 1)`);
    await expectRollUpsMatchDetail(t.ctx.db);
  });

  it('refuses to change or delete a commission row, which would leave the roll-ups behind', async () => {
    const refusal = (q: SQL) =>
      t.ctx.db.execute(q).then(
        () => 'done',
        (e: { message?: string; cause?: { message?: string } }) => e.cause?.message ?? e.message ?? String(e),
      );
    expect(await refusal(sql`update partner_commissions set amount = 0 where deal_id = 900002`)).toMatch(
      /cannot be changed or deleted/,
    );
    expect(await refusal(sql`delete from partner_commissions where deal_id = 900002`)).toMatch(
      /cannot be changed or deleted/,
    );
    expect(await refusal(sql`truncate partner_commissions`)).toMatch(/cannot be changed or deleted/);
    await expectRollUpsMatchDetail(t.ctx.db);
  });
});
