import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { DbOrTx } from '../../db/client.ts';
import { type Period, partnerSummary } from './reports.ts';

/**
 * The checks of the partners' daily roll-up and clients' first and last deals (kept by a trigger on the commissions,
 * migration 0038) the tests and bench/partners.ts share: the roll-up against the commission rows grouped afresh, and
 * the dashboard's figures against the same figures read from the rows themselves (the query the dashboard ran before
 * the roll-up).
 */

const rowsOf = <T>(r: unknown): T[] => (r as { rows: T[] }).rows;

type DayRow = { partner_id: number; day: string; currency: string; amount: string; lots: string; entries: number };

/** The dashboard's volume from one commission row (reports.ts's rule before the roll-up). */
const volume = sql`case when level = 1 and kind = 'trade' and deal_id is not null then lots
                        when level = 1 and kind = 'reversal' then -lots else 0 end`;

/**
 * The roll-up as stored equals the commission rows grouped afresh, to the digit and the printed scale, and so do the
 * partners' clients' first and last deals (partner_traders).
 */
export async function expectRollUpsMatchDetail(db: DbOrTx): Promise<void> {
  const stored = rowsOf<DayRow>(
    await db.execute(sql`
      select partner_id, to_char(day, 'YYYY-MM-DD') as day, currency, amount::text, lots::text, entries
        from partner_commission_days order by 1, 2, 3`),
  );
  const fresh = rowsOf<DayRow>(
    await db.execute(sql`
      select partner_id, to_char(date_trunc('day', accrued_at at time zone 'UTC'), 'YYYY-MM-DD') as day, currency,
             sum(amount)::text as amount, sum(${volume})::text as lots, count(*)::int as entries
        from partner_commissions group by 1, 2, 3 order by 1, 2, 3`),
  );
  expect(stored).toEqual(fresh);
  const traders = (from: ReturnType<typeof sql>) => sql`
    select partner_id, customer_id, first_at, last_at from ${from} order by 1, 2`;
  expect(rowsOf(await db.execute(traders(sql`partner_traders`)))).toEqual(
    rowsOf(
      await db.execute(
        traders(sql`(select partner_id, customer_id, min(accrued_at) as first_at, max(accrued_at) as last_at
                       from partner_commissions where level = 1 and kind = 'trade' and deal_id is not null
                      group by 1, 2) c`),
      ),
    ),
  );
}

/** A partner's traders, lots, commission and days over the period, grouped from their commission rows. */
export async function figuresFromDetail(db: DbOrTx, partnerId: number, p: Period) {
  const rows = rowsOf<{ day: string; currency: string; amount: string; lots: string; traders: number; whole: number }>(
    await db.execute(sql`
      select to_char(date_trunc('day', accrued_at at time zone 'UTC'), 'YYYY-MM-DD') as day, currency,
             sum(amount)::text as amount,
             coalesce(sum(${volume}), 0)::text as lots,
             count(distinct customer_id) filter (where level = 1 and kind = 'trade' and deal_id is not null)::int as traders,
             grouping(to_char(date_trunc('day', accrued_at at time zone 'UTC'), 'YYYY-MM-DD'), currency)::int as whole
        from partner_commissions
       where partner_id = ${partnerId}
         and accrued_at >= ${p.from.toISOString()}::timestamptz and accrued_at < ${p.to.toISOString()}::timestamptz
       group by grouping sets ((1, 2), ())
       order by 1, 2`),
  );
  const total = rows.find((r) => r.whole !== 0);
  return {
    activeTraders: total?.traders ?? 0,
    lots: total?.lots ?? '0',
    byDay: rows
      .filter((r) => r.whole === 0)
      .map(({ day, currency, amount, lots }) => ({ day, currency, amount, lots })),
  };
}

/** The dashboard's traders, lots and days for this partner and period are those grouped from the rows. */
export async function expectSummaryMatchesDetail(db: DbOrTx, partnerId: number, p: Period): Promise<void> {
  const { activeTraders, lots, byDay } = await partnerSummary(db, partnerId, p);
  expect({ activeTraders, lots, byDay }).toEqual(await figuresFromDetail(db, partnerId, p));
}
