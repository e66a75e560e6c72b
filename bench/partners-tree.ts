import { sql } from 'drizzle-orm';
import type { Db } from '../apps/server/src/db/client.ts';

/**
 * A three-level partner tree (A above B above C) on a plan paying per lot and a share of the spread, with every bench
 * customer a client of C, or no partner at all: bench/orders.ts measures the order path both ways in one run.
 */
export async function setPartnerTree(db: Db, on: boolean, customerIds: number[]): Promise<void> {
  if (!on) {
    await db.execute(sql`delete from partner_clients where reason = 'bench'`);
    return;
  }
  const rows = (r: unknown) => (r as { rows: Array<{ id: number }> }).rows;
  let [plan] = rows(await db.execute(sql`select id from partner_plans where name = 'Bench IB'`));
  if (!plan) {
    [plan] = rows(await db.execute(sql`insert into partner_plans (name) values ('Bench IB') returning id`));
    await db.execute(sql`
      insert into partner_plan_versions (plan_id, effective_from, name, currency, per_lot, spread_share,
                                         commission_share, cpa, cpa_min_deposit, levels, count_demo, min_hold_seconds)
      values (${plan.id}, to_timestamp(0), 'Bench IB', 'USD',
              '{"forex":"10","commodity":"1","index":"1","stock":"0","crypto":"2"}', 20, 50, 0, 0,
              '["100","20","5"]', false, 0)`);
    let parent: number | null = null;
    for (const name of ['A', 'B', 'C']) {
      const [u] = rows(
        await db.execute(sql`
          insert into users (full_name, email, password_hash, role_id, is_email_verified)
          values (${`Bench partner ${name}`}, ${`bench-partner-${name.toLowerCase()}@bench.test`}, 'x', 4, true)
          returning id`),
      );
      await db.execute(
        sql`insert into partner_links (user_id, plan_id, parent_id) values (${u.id}, ${plan.id}, ${parent})`,
      );
      parent = u.id;
    }
  }
  const [lowest] = rows(await db.execute(sql`select id from users where email = 'bench-partner-c@bench.test'`));
  await db.execute(sql`
    insert into partner_clients (customer_id, partner_id, reason)
    select unnest(${`{${customerIds.join(',')}}`}::int[]), ${lowest.id}, 'bench'
    on conflict (customer_id) do update set partner_id = excluded.partner_id, reason = 'bench'`);
}

/** Commissions credited so far, and jobs still waiting (what the phase left for after it). */
export async function partnerCounts(db: Db): Promise<{ commissions: number; waiting: number }> {
  const [row] = (
    (await db.execute(sql`
      select (select count(*)::int from partner_commissions) as commissions,
             (select count(*)::int from pgboss.job where name = 'partners.accrue' and state in ('created', 'retry', 'active')) as waiting`)) as unknown as {
      rows: Array<{ commissions: number; waiting: number }>;
    }
  ).rows;
  return row;
}
