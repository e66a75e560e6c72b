import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { accrueCpa, accrueDeals } from './accrual.ts';

/**
 * The catch-up pass (`partners.sweep`, every minute): deals of partners' clients closed since the last pass (less a
 * margin for transactions that committed late) with no commission yet, and clients whose first deposit came since,
 * are accrued. This is how first deposits pay their CPA, and how a deal whose queued job was lost still pays. Both
 * steps are idempotent, so overlapping passes and instances change nothing twice.
 */

type Ctx = Pick<AppContext, 'db' | 'market' | 'risk'>;

/** Deals closed this long before the last pass's end are looked at again (a transaction's commit can lag). */
const OVERLAP_MS = 10 * 60_000;
/** The first pass looks this far back. */
const FIRST_LOOK_MS = 24 * 3_600_000;
const BATCH = 500;

const rowsOf = <T>(r: unknown): T[] => (r as { rows: T[] }).rows;

/** Every customer some rule could give a partner (clients.ts): the pass looks only at their wallets. */
const CANDIDATES = sql`
  select pc.customer_id as id from partner_clients pc where pc.partner_id is not null
  union select u.id from users u join promo_codes c on c.id = u.promo_code_id
         join users a on a.id = c.user_id and a.role_id = 4
  union select l.linked_user_id from leads l join users a on a.id = l.user_id and a.role_id = 4
         where l.linked_user_id is not null and l.deleted_at is null`;

export async function sweepPartnerAccruals(ctx: Ctx, now = new Date()): Promise<{ deals: number; cpa: number }> {
  const [cursor] = rowsOf<{ closed_up_to: Date | string }>(
    await ctx.db.execute(sql`select closed_up_to from partner_sweep where id = 1`),
  );
  const last = cursor ? new Date(cursor.closed_up_to) : new Date(now.getTime() - FIRST_LOOK_MS);
  const from = new Date(last.getTime() - OVERLAP_MS);
  let deals = 0;
  let cpa = 0;
  const dealIds = rowsOf<{ id: number }>(
    await ctx.db.execute(sql`
      select o.id from (${CANDIDATES}) c
        join balances b on b.user_id = c.id
        join orders o on o.balance_id = b.id and o.close_time > ${from.toISOString()}::timestamptz
                     and o.close_time <= ${now.toISOString()}::timestamptz
       where o.voided_at is null
         and not exists (select 1 from partner_commissions pc where pc.deal_id = o.id and pc.kind = 'trade')`),
  ).map((r) => r.id);
  for (let i = 0; i < dealIds.length; i += BATCH) deals += await accrueDeals(ctx, dealIds.slice(i, i + BATCH));
  const customers = rowsOf<{ id: number }>(
    await ctx.db.execute(sql`
      select u.id from (${CANDIDATES}) c join users u on u.id = c.id
       where u.ftd_at > ${from.toISOString()}::timestamptz and u.ftd_at <= ${now.toISOString()}::timestamptz
         and not exists (select 1 from partner_commissions pc where pc.customer_id = u.id and pc.kind = 'cpa')`),
  );
  for (const { id } of customers) cpa += await accrueCpa(ctx, id);
  await ctx.db.execute(sql`
    insert into partner_sweep (id, closed_up_to) values (1, ${now.toISOString()}::timestamptz)
    on conflict (id) do update set closed_up_to = greatest(partner_sweep.closed_up_to, excluded.closed_up_to)`);
  return { deals, cpa };
}
