import { and, count, desc, eq, inArray, not, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { CustomerListQuery, CustomerListResponse } from '@platform/domain';
import type { AppContext } from '../../context.ts';
import { balances, userProfiles, users } from '../../db/schema.ts';
import { figuresFirst } from '../../lib/figure-paging.ts';
import {
  countBound,
  countUnlessWalking,
  escapeLike,
  offsetOf,
  pageMeta,
  walkFrom,
  walkOffset,
  type Walk,
} from '../../lib/paging.ts';
import { customerScope, type StaffActor } from '../../lib/staff-scope.ts';
import { figuresOf } from '../customer-360/figures.ts';
import { customerQuery, figureOrder, mainWalletOf, type CustomerCols } from '../customer-360/filters.ts';
import { liveCustomer } from './service.ts';

type Ctx = Pick<AppContext, 'db' | 'realtime' | 'risk'>;

/** The customer's main real wallet, joined when a filter or the sort reads it. */
const mainWallet = alias(balances, 'main_wallet');
const cols: CustomerCols = { user: users, wallet: mainWallet };

/**
 * "Contains" search over a customer's name, email and phone, through the trigram indexes of migration
 * 0010_reporting_indexes (the expressions must stay the same as there).
 */
function searchCustomers(search: string | undefined): SQL | undefined {
  const s = search?.trim();
  if (!s) return undefined;
  const pattern = `%${escapeLike(s)}%`;
  return sql`${users.id} in (
    select id from users where role_id = 3 and deleted_at is null and (coalesce(full_name, '') || ' ' || email) ilike ${pattern}
    union select user_id from user_profiles where phone is not null and phone ilike ${pattern})`;
}

/**
 * GET /admin/customers/api/{type}: customers in scope, newest first, searched by name, email or phone, filtered and
 * sorted by their Customer 360 figures (customer-360/filters.ts). The page's ids come first, each part through an
 * index, and only they are joined; the count stops a window past the page (lib/paging.ts countBound).
 */
export async function listCustomers(
  ctx: Ctx,
  actor: StaffActor,
  type: 'all' | 'inactive',
  q: CustomerListQuery & Walk,
): Promise<CustomerListResponse> {
  const customer = await customerQuery(ctx, q, { walking: q.before !== undefined || q.uncounted === true });
  const where = and(
    liveCustomer,
    type === 'inactive' ? eq(users.isActive, false) : undefined,
    customerScope(actor, users.id),
    searchCustomers(q.search),
    customer.where(cols),
  );
  const sort = customer.sort;
  const withWallet = customer.wallet || sort?.wallet === true;
  // The same FROM for the page, its parts and the count; the main wallet is at most one row (a unique index).
  const from = <T extends Record<string, SQL | typeof users.id>>(fields: T) => {
    const q0 = ctx.db.select(fields).from(users).$dynamic();
    return (withWallet ? q0.leftJoin(mainWallet, mainWalletOf(cols)) : q0) as typeof q0;
  };
  const idsOf = async (rows: Promise<Array<{ id: number }>>) => (await rows).map((r) => r.id);
  const bound = countBound(q);
  // The capped count joins nothing it does not need: the main wallet only for a balance or equity filter (a sort by
  // it does not change how many there are), and with such a filter alone (an admin's scope is every customer), the
  // main wallets of live customers without their rows (balances.live_customer and its indexes). With other conditions
  // too, the customers and their wallets are joined as the page is, each side narrowing the other through its index.
  const byWallet =
    customer.wallet && actor.roleId === 1 && type === 'all' && !q.search?.trim() && !customer.userWhere(cols);
  const counted = byWallet
    ? ctx.db
        .select({ one: sql`1` })
        .from(mainWallet)
        .where(and(eq(mainWallet.main, true), eq(mainWallet.liveCustomer, true), customer.walletWhere(cols)))
    : customer.wallet
      ? from({ one: sql`1` }).where(where)
      : ctx.db.select({ one: sql`1` }).from(users).where(where);
  const counting = countUnlessWalking(q, () => ctx.db.select({ n: count() }).from(counted.limit(bound).as('counted')));
  const paging = sort
    ? figuresFirst(
        { limit: q.limit, offset: offsetOf(q) },
        {
          head: (limit, offset) =>
            idsOf(
              from({ id: users.id })
                .where(and(where, sort.has(cols)))
                .orderBy(...figureOrder(sort, cols, users.id))
                .limit(limit)
                .offset(offset),
            ),
          countHead: async (limit) =>
            (
              await ctx.db.select({ n: count() }).from(
                from({ one: sql`1` })
                  .where(and(where, sort.has(cols)))
                  .limit(limit)
                  .as('head'),
              )
            )[0].n,
          tail: (limit, offset) =>
            idsOf(
              from({ id: users.id })
                .where(and(where, not(sort.has(cols))))
                .orderBy(sql`${users.id} ${sql.raw(sort.dir)}`)
                .limit(limit)
                .offset(offset),
            ),
        },
      )
    : null;
  // The page's rows with their profile and main wallet: newest first, joined to the page's ids found by an index walk
  // (as one statement: an export reads 1,000 at a time), or the ids a sorted page found.
  const fields = {
    u: users,
    p: userProfiles,
    walletId: mainWallet.id,
    currency: mainWallet.currency,
    balance: mainWallet.balance,
  };
  const newest = () => {
    const page = from({ id: users.id })
      .where(and(where, walkFrom(q, users.id)))
      .orderBy(desc(users.id))
      .limit(q.limit)
      .offset(walkOffset(q))
      .as('page');
    return ctx.db
      .select(fields)
      .from(page)
      .innerJoin(users, eq(users.id, page.id))
      .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
      .leftJoin(mainWallet, mainWalletOf(cols))
      .orderBy(desc(users.id));
  };
  const byIds = async (ids: number[]) =>
    ids.length === 0
      ? []
      : ctx.db
          .select(fields)
          .from(users)
          .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
          .leftJoin(mainWallet, mainWalletOf(cols))
          .where(inArray(users.id, ids));
  const [[{ n }], ids, found] = await Promise.all([counting, paging, paging !== null ? paging.then(byIds) : newest()]);
  const order = ids ?? found.map((r) => r.u.id);
  if (order.length === 0) return { data: [], meta: pageMeta(q, n, bound) };
  const rows = found;
  const online = await ctx.realtime.onlineUsers(order);
  const byId = new Map(rows.map((r) => [r.u.id, r]));
  return {
    data: order.flatMap((id) => {
      const row = byId.get(id);
      if (!row) return [];
      const { u, p } = row;
      const c = figuresOf(
        ctx.risk,
        { ...u, walletId: row.walletId, currency: row.currency, balance: row.balance },
        online,
      );
      return [
        {
          id: u.id,
          full_name: u.fullName,
          email: u.email,
          phone: p?.phone ?? null,
          birth_date: p?.birthDate ?? null,
          country: p?.country ?? null,
          role_id: u.roleId,
          is_email_verified: u.isEmailVerified,
          is_active: u.isActive,
          ...c,
        },
      ];
    }),
    meta: pageMeta(q, n, bound),
  };
}
