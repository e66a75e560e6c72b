import { and, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { CUSTOMER_360_FILTERS, type LeadItem, type LeadListQuery } from '@platform/domain';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { balances, leads, users } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { figuresFirst } from '../../lib/figure-paging.ts';
import type { StaffActor } from '../../lib/staff-scope.ts';
import { customerFigures } from '../customer-360/figures.ts';
import {
  customerQuery,
  figureOrder,
  mainWalletOf,
  type CustomerCols,
  type CustomerQuery,
} from '../customer-360/filters.ts';

/** What the lead lists need beyond the database: presence and the risk engine's live equity. */
export type LeadCtx = { db: DbOrTx } & Pick<AppContext, 'realtime' | 'risk'>;

/** The lead's customer and its main real wallet, as the lead lists join them. */
const customerUser = alias(users, 'lead_customer');
const customerWallet = alias(balances, 'lead_customer_wallet');
const cols: CustomerCols = { user: customerUser, wallet: customerWallet };
/** The same inside subqueries (their own names, so they never clash with the page's join). */
const innerUser = alias(users, 'lead_filter_user');
const innerWallet = alias(balances, 'lead_filter_wallet');
const inner: CustomerCols = { user: innerUser, wallet: innerWallet };
/** Raw SQL names an alias without declaring it: the subqueries' FROM says which table each alias is. */
const innerUsers = sql`${users} ${sql.identifier('lead_filter_user')}`;
const innerWallets = sql`${balances} ${sql.identifier('lead_filter_wallet')}`;

/** Affiliates bring leads; their customers' money, KYC and sign-ins are not theirs to see (docs/decisions.md). */
const seesCustomers = (actor: Pick<StaffActor, 'roleId'>) => actor.roleId !== 4;

/**
 * The Customer 360 part of a lead list request (customer-360/filters.ts): filters and sort by the linked customer's
 * figures, for admins, managers and agents; an affiliate asking for them is refused (403).
 */
export async function leadCustomerQuery(
  ctx: LeadCtx,
  actor: StaffActor,
  q: LeadListQuery & { before?: number; uncounted?: boolean },
): Promise<CustomerQuery> {
  const asked = [...CUSTOMER_360_FILTERS, 'sort' as const].some((k) => q[k] !== undefined);
  if (asked && !seesCustomers(actor)) throw new AppError('FORBIDDEN');
  return customerQuery(ctx, q, { walking: q.before !== undefined || q.uncounted === true });
}

/**
 * Leads whose customer passes the filters (leads without a customer never pass): the KYC state and first deposit on
 * the lead's own copy of them (leads.customer_kyc_status, customer_ftd_at), presence on its link, and a balance or
 * equity filter as one semi-join on the main wallets. Nothing joins the customer's row, so a list counts its matching
 * leads through its own indexes.
 */
export function leadCustomerFilter(customer: CustomerQuery): SQL | undefined {
  if (!customer.filtered) return undefined;
  return and(
    isNotNull(leads.linkedUserId),
    customer.userWhere({
      user: { id: leads.linkedUserId, kycStatus: leads.customerKycStatus, ftdAt: leads.customerFtdAt },
    }),
    customer.wallet
      ? sql`${leads.linkedUserId} in (select ${innerWallet.userId} from ${innerWallets} where ${innerWallet.main} and ${customer.walletWhere(inner)})`
      : undefined,
  );
}

/** Below this many customers among a list's leads, a sort by their figure reads those leads first and sorts them. */
export const SPARSE_CUSTOMERS = 2_000;

const rowsOf = (db: DbOrTx, q: SQL) =>
  db.execute(q).then((r) => (r as unknown as { rows: Array<{ id: number }> }).rows);
/** The number of rows of a statement selecting them (give it a LIMIT to cap the count). */
const countOf = async (db: DbOrTx, q: SQL): Promise<number> =>
  Number((await rowsOf(db, sql`select count(*) as id from (${q}) c`))[0].id);

/** How many of the list's leads (`base`) have a customer, counting no further than `sparse`. */
export const customersIn = (db: DbOrTx, base: SQL, sparse = SPARSE_CUSTOMERS): Promise<number> =>
  countOf(
    db,
    sql`select 1 from ${leads} where ${base} and ${leads.linkedUserId} is not null limit ${Math.max(sparse, 1)}`,
  );

/**
 * The list's leads that have a customer, read first (materialised, so the planner cannot turn it back into a walk of
 * the whole list), named `leads` as the table is: what a list with few customers filters or sorts by their figures,
 * where walking the whole list newest first would check every lead of it to find few or none.
 */
export const customerLeadsOf = (base: SQL): SQL =>
  sql`(select * from ${leads} where ${base} and ${leads.linkedUserId} is not null offset 0) as leads`;

/** Where a list's page and count read its leads: a FROM naming them `leads`, and the condition on them. */
export interface LeadSource {
  from: SQL;
  where: SQL;
}

/**
 * Where a list filtered by its customers' figures (`filter`, leadCustomerFilter) reads its leads: only leads with a
 * customer pass, so a list without any has nothing to read (null), a list with fewer than `sparse` (a sales list, an
 * agent's own) reads those leads first, and the others are walked newest first through their own indexes.
 */
export async function filteredLeads(
  db: DbOrTx,
  base: SQL,
  filter: SQL,
  sparse = SPARSE_CUSTOMERS,
): Promise<LeadSource | null> {
  const customers = await customersIn(db, base, sparse);
  if (customers === 0) return null;
  return customers < sparse
    ? { from: customerLeadsOf(base), where: filter }
    : { from: sql`${leads}`, where: and(base, filter)! };
}

/** One page of a list's lead ids, newest first (an export walks on from `before`). */
export const newestLeadIds = async (
  db: DbOrTx,
  source: LeadSource,
  page: { limit: number; offset: number; before?: SQL },
): Promise<number[]> =>
  (
    await rowsOf(
      db,
      sql`select leads.id from ${source.from} where ${and(source.where, page.before)} order by leads.id desc limit ${page.limit} offset ${page.offset}`,
    )
  ).map((r) => Number(r.id));

/** How many leads a list has, counting no further than `bound`. */
export const countLeads = (db: DbOrTx, source: LeadSource, bound: number): Promise<number> =>
  countOf(db, sql`select 1 from ${source.from} where ${source.where} limit ${bound}`);

/**
 * The ids of one page of a lead list sorted by a customer figure: leads whose customer has it first, in its order,
 * then the others newest first (lib/figure-paging). `base` is the list's own conditions, `filter` the customer
 * filters as one semi-join. Where the list's leads are mostly customers (Clients, Retentions) the figure's index is
 * walked and each lead found by its unique link; where few are (a sales list, an agent's own), those few are read
 * through leads_customer_idx and sorted, so the walk never visits every customer to find none.
 */
export async function sortedLeadIds(
  db: DbOrTx,
  base: SQL,
  filter: SQL | undefined,
  customer: CustomerQuery,
  page: { limit: number; offset: number },
  sparse = SPARSE_CUSTOMERS,
): Promise<number[]> {
  const sort = customer.sort!;
  const ids = async (rows: Promise<Array<{ id: number }>> | Promise<unknown>) =>
    ((await rows) as Array<{ id: number }>).map((r) => Number(r.id));
  const where = and(base, filter)!;
  const tail = (lacks: SQL) => (limit: number, offset: number) =>
    ids(
      db
        .select({ id: leads.id })
        .from(leads)
        .where(and(where, lacks))
        .orderBy(sql`${leads.id} ${sql.raw(sort.dir)}`)
        .limit(limit)
        .offset(offset),
    );
  // Online first: the lead's link compared with who is online (the unique link's index finds them).
  if (sort.key === 'online') {
    const has = and(where, customer.online(leads.linkedUserId))!;
    const head = (limit: number, offset: number) =>
      ids(
        db
          .select({ id: leads.id })
          .from(leads)
          .where(has)
          .orderBy(...figureOrder(sort, cols, leads.id))
          .limit(limit)
          .offset(offset),
      );
    return figuresFirst(page, {
      head,
      countHead: (bound) => countOf(db, sql`select 1 from ${leads} where ${has} limit ${bound}`),
      tail: tail(customer.offline(leads.linkedUserId)),
    });
  }

  // The lead's customer (a live one) and its main wallet, with the filters on them directly.
  const from = sql`join ${users} ${sql.identifier('lead_customer')} on ${customerUser.id} = leads.linked_user_id
      and ${customerUser.roleId} = 3 and ${customerUser.deletedAt} is null
    ${sort.wallet || customer.wallet ? sql`left join ${balances} ${sql.identifier('lead_customer_wallet')} on ${mainWalletOf(cols)}` : sql``}`;
  const on = and(customer.where(cols), sort.has(cols))!;
  const order = sql.join(figureOrder(sort, cols, leads.id), sql`, `);
  const customers = await customersIn(db, base, sparse);
  // No customer among the list's leads (a fresh sales list): the page is the list's own, in the asked direction.
  if (customers === 0) return tail(sql`true`)(page.limit, page.offset);
  const few = customers < sparse;
  // Few customers: those leads first (materialised, so the planner cannot turn it back into a walk), then sorted.
  const source = few ? customerLeadsOf(base) : sql`${leads}`;
  const head = (limit: number, offset: number) =>
    ids(
      rowsOf(
        db,
        sql`select leads.id from ${source} ${from} where ${few ? sql`true` : base} and ${on} order by ${order} limit ${limit} offset ${offset}`,
      ),
    );
  const lacks = sql`not exists (select 1 from ${innerUsers} ${
    sort.wallet ? sql`left join ${innerWallets} on ${mainWalletOf(inner)}` : sql``
  } where ${innerUser.id} = ${leads.linkedUserId} and ${innerUser.roleId} = 3 and ${innerUser.deletedAt} is null and ${sort.has(inner)})`;
  return figuresFirst(page, {
    head,
    countHead: (bound) =>
      countOf(db, sql`select 1 from ${source} ${from} where ${few ? sql`true` : base} and ${on} limit ${bound}`),
    tail: tail(lacks),
  });
}

/** The page's leads in the order of `ids` (loadLeads reads them newest first). */
export async function inOrder(
  ids: number[],
  load: (where: SQL, page: { limit: number; offset: number }) => Promise<LeadItem[]>,
): Promise<LeadItem[]> {
  if (ids.length === 0) return [];
  const byId = new Map((await load(inArray(leads.id, ids), { limit: ids.length, offset: 0 })).map((l) => [l.id, l]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** Each lead with its customer's figures (live equity and presence), for everyone but affiliates. */
export async function withCustomers(ctx: LeadCtx, actor: StaffActor, items: LeadItem[]): Promise<LeadItem[]> {
  if (!seesCustomers(actor)) return items.map((l) => ({ ...l, customer: null }));
  const ids = items.flatMap((l) => (l.linked ? [l.linked.id] : []));
  const figures = await customerFigures(ctx, ids);
  return items.map((l) => ({ ...l, customer: l.linked ? (figures.get(l.linked.id) ?? null) : null }));
}
