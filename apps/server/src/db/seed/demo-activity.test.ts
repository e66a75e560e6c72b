import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { expectRollUpsMatchDetail } from '../../modules/partners/days-testing.ts';
import { sweepPartnerAccruals } from '../../modules/partners/sweep.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ DEMO_ACTIVITY: 'true' });
});
afterAll(() => t.close());

const rows = async <T>(q: ReturnType<typeof sql>): Promise<T[]> =>
  ((await t.ctx.db.execute(q)) as unknown as { rows: T[] }).rows;

describe('demo activity', () => {
  it('gives the back office a month of customers, money and trades', async () => {
    const [c] = await rows<{
      customers: number;
      deposits: number;
      withdrawals: number;
      closed: number;
      open: number;
    }>(sql`
      select (select count(*)::int from users where role_id = 3) as customers,
             (select count(*)::int from deposits) as deposits,
             (select count(*)::int from withdrawals) as withdrawals,
             (select count(*)::int from orders where close_time is not null) as closed,
             (select count(*)::int from orders where close_time is null) as open`);
    expect(c.customers).toBeGreaterThan(40);
    expect(c.deposits).toBeGreaterThan(40);
    expect(c.withdrawals).toBeGreaterThan(5);
    expect(c.closed).toBeGreaterThan(50);
    expect(c.open).toBeGreaterThan(3);
  });

  it('keeps every wallet equal to its ledger and its held margin equal to its open positions', async () => {
    const off = await rows<{ id: number }>(sql`
      select b.id from balances b
       where b.balance <> coalesce((select sum(amount) from ledger_entries l where l.balance_id = b.id), 0)
          or b.margin <> coalesce((select sum(margin_used) from orders o where o.balance_id = b.id and o.close_time is null), 0)`);
    expect(off).toEqual([]);
  });

  it('books every approved deposit and closed trade in the ledger, and nothing for pending or declined deposits', async () => {
    const missing = await rows<{ id: number }>(sql`
      select d.id from deposits d where d.status = 'approved'
         and not exists (select 1 from ledger_entries l where l.ref_type = 'deposit' and l.ref_id = d.id and l.amount = d.amount)`);
    expect(missing).toEqual([]);
    const stray = await rows<{ id: number }>(sql`
      select d.id from deposits d where d.status <> 'approved'
         and exists (select 1 from ledger_entries l where l.ref_type = 'deposit' and l.ref_id = d.id)`);
    expect(stray).toEqual([]);
    const unbooked = await rows<{ id: number }>(sql`
      select o.id from orders o where o.close_time is not null
         and not exists (select 1 from ledger_entries l where l.ref_type = 'order' and l.ref_id = o.id and l.kind = 'trade_pl')`);
    expect(unbooked).toEqual([]);
  });

  it('gives the demo partners clients whose month of deals the first catch-up pass pays, once, through the ledger', async () => {
    const [tree] = await rows<{ partners: number; subs: number; clients: number }>(sql`
      select (select count(*)::int from partner_links) as partners,
             (select count(*)::int from partner_links where parent_id is not null) as subs,
             (select count(*)::int from partner_clients where partner_id is not null) as clients`);
    expect(tree).toEqual({ partners: 2, subs: 1, clients: 6 });
    // The pass the job queue runs each minute may have come first: either way the month is paid once.
    await sweepPartnerAccruals(t.ctx);
    const paid = async () =>
      (
        await rows<{ l1: number; l2: number }>(sql`
          select count(*) filter (where level = 1)::int as l1, count(*) filter (where level = 2)::int as l2
            from partner_commissions where kind = 'trade'`)
      )[0];
    const levels = await paid();
    expect(levels.l1).toBeGreaterThan(0);
    // Level 2: the affiliate earns on the sub-partner's clients too.
    expect(levels.l2).toBeGreaterThan(0);
    expect((await sweepPartnerAccruals(t.ctx)).deals).toBe(0);
    expect(await paid()).toEqual(levels);
    // The dashboard's daily roll-up, kept by the same passes, equals the month's commission rows.
    await expectRollUpsMatchDetail(t.ctx.db);
    const off = await rows<{ id: number }>(sql`
      select b.id from balances b
       where b.balance <> coalesce((select sum(amount) from ledger_entries l where l.balance_id = b.id), 0)`);
    expect(off).toEqual([]);
  });
});
