import { sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { CATEGORIES, dec, type DashboardQuery, type DashboardResponse } from '@platform/domain';
import type { DbOrTx } from '../../db/client.ts';
import { getBranding } from '../settings/service.ts';

type Query = z.output<typeof DashboardQuery>;
type Rows<T> = { rows: T[] };
const rows = async <T>(db: DbOrTx, q: SQL): Promise<T[]> => ((await db.execute(q)) as unknown as Rows<T>).rows;

/** `created_at` (or another time column) within the inclusive day range; no bound where none is given. */
function within(column: SQL, q: Query): SQL {
  const from = q.from ? sql`${column} >= ${q.from}::date` : sql`true`;
  const to = q.to ? sql`${column} < ${q.to}::date + 1` : sql`true`;
  return sql`${from} and ${to}`;
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * GET /admin/dashboard: every figure is one SQL aggregate (no rows are loaded into the server). Money counts real
 * wallets only, by the day the deposit or withdrawal was requested and approved trades by their close; per currency,
 * the app currency's totals headline and the others are listed beside.
 */
export async function dashboard(db: DbOrTx, q: Query, today = new Date()): Promise<DashboardResponse> {
  const { appCurrency } = await getBranding(db);
  const [money, engagement, customers, recent] = await Promise.all([
    // Deposits and withdrawals only ever reach real wallets, and carry the wallet's currency; orders carry both.
    rows<{ currency: string; deposits: string; withdraws: string; pro_loss: string }>(
      db,
      sql`
      with dep as (
        select currency, sum(amount) as total from deposits where status = 'approved' and ${within(sql`created_at`, q)} group by currency
      ), wd as (
        select currency, sum(amount) as total from withdrawals where status = 'approved' and ${within(sql`created_at`, q)} group by currency
      ), pl as (
        select balance_currency as currency, sum(pro_loss) as total from orders
         where close_time is not null and voided_at is null and balance_mode = 'real' and ${within(sql`close_time`, q)} group by balance_currency
      ), cur as (select currency from dep union select currency from wd union select currency from pl)
      select cur.currency, coalesce(dep.total, 0)::text as deposits, coalesce(wd.total, 0)::text as withdraws, coalesce(pl.total, 0)::text as pro_loss
        from cur left join dep using (currency) left join wd using (currency) left join pl using (currency)`,
    ),
    // Trades opened in the range on real wallets, by category (their sum is Total Trades).
    rows<{ kind: string; n: number }>(
      db,
      sql`
      select kind, count(*)::int as n from orders where voided_at is null and balance_mode = 'real' and ${within(sql`created_at`, q)} group by kind`,
    ),
    rows<{ n: number }>(
      db,
      sql`select count(*)::int as n from users where role_id = 3 and deleted_at is null and ${within(sql`created_at`, q)}`,
    ),
    // The last 7 days always end today, whatever the range above (spec: "Recent Transactions").
    rows<{ day: string; kind: 'deposit' | 'withdraw'; total: string }>(
      db,
      sql`
      select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, 'deposit' as kind, sum(amount)::text as total
        from deposits where status = 'approved' and currency = ${appCurrency} and created_at >= ${day(today)}::date - 6
       group by 1
      union all
      select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD'), 'withdraw', sum(amount)::text
        from withdrawals where status = 'approved' and currency = ${appCurrency} and created_at >= ${day(today)}::date - 6
       group by 1`,
    ),
  ]);

  const main = money.find((m) => m.currency === appCurrency);
  const days = Array.from({ length: 7 }, (_, i) => day(new Date(today.getTime() - (6 - i) * 86_400_000)));
  const series = (kind: 'deposit' | 'withdraw') =>
    days.map((d) => Number(recent.find((r) => r.day === d && r.kind === kind)?.total ?? 0));
  const counts = new Map(engagement.map((e) => [e.kind, e.n]));
  return {
    currency: appCurrency,
    totalDeposits: dec(main?.deposits ?? 0).toFixed(2),
    totalWithdraws: dec(main?.withdraws ?? 0).toFixed(2),
    totalTrades: engagement.reduce((sum, e) => sum + e.n, 0),
    totalUsers: customers[0]?.n ?? 0,
    totalProLoss: dec(main?.pro_loss ?? 0)
      .negated()
      .toFixed(2),
    otherCurrencies: money
      .filter((m) => m.currency !== appCurrency)
      .map((m) => ({
        currency: m.currency,
        deposits: dec(m.deposits).toFixed(2),
        withdraws: dec(m.withdraws).toFixed(2),
        proLoss: dec(m.pro_loss).negated().toFixed(2),
      })),
    last7DaysTransactions: {
      categories: days,
      series: [
        { name: 'Deposits', data: series('deposit') },
        { name: 'Withdraws', data: series('withdraw') },
      ],
    },
    tradeEngagement: { categories: [...CATEGORIES], data: CATEGORIES.map((c) => counts.get(c) ?? 0) },
  };
}
