import { and, eq, gte, isNotNull, isNull, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { dec, type Customer360Query, type Customer360Sort, type SortDirection } from '@platform/domain';
import type { AppContext } from '../../context.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import { onlineCustomerIds } from './online.ts';

type Col = AnyPgColumn;
/** A customer's user row and main real wallet as a list query names them (the tables themselves or aliases). */
export interface CustomerCols {
  user: { id: Col; ftdAt: Col; ftdAmount: Col; kycStatus: Col; lastLoginAt: Col };
  wallet: { id: Col; userId: Col; main: Col; balance: Col; floatingPl: Col };
}

/** The customer's figures a filter reads besides its wallet's, and the customer's id (for presence). */
export type FilteredFigures = Pick<CustomerCols['user'], 'id' | 'kycStatus' | 'ftdAt'>;

/** The main real wallet of the row's user, for a LEFT JOIN (one row at most: balances_main_user_unique). */
export const mainWalletOf = (c: CustomerCols): SQL => and(eq(c.wallet.userId, c.user.id), eq(c.wallet.main, true))!;

/** Equity as the lists sort and filter it: the same expression as the index balances_main_equity_idx. */
export const storedEquity = (w: CustomerCols['wallet']): SQL => sql`(${w.balance} + ${w.floatingPl})`;

/** How a list is sorted by a customer figure: the figure, its tie-breaker, and which rows have it. */
export interface FigureSort {
  key: Customer360Sort;
  dir: SortDirection;
  /** The figure (null for `online`: online rows first, by the list's own id). */
  order(c: CustomerCols): SQL | Col | null;
  /** The unique column that breaks ties in the figure's index. */
  tie(c: CustomerCols): AnyPgColumn;
  /** The rows that have the figure (listed first); the others follow by id. */
  has(c: CustomerCols): SQL;
  /** Whether the figure lives on the main wallet (the query joins it). */
  wallet: boolean;
}

/** The customer part of a list query: filters, the optional sort, and the online customers when either needs them. */
export interface CustomerQuery {
  /** Conditions on the customer's row and main wallet; undefined without filters. */
  where(c: CustomerCols): SQL | undefined;
  /**
   * The same split: the conditions on the customer's KYC state, first deposit and presence (columns of the customer's
   * row, or of a lead's copy of them with its link as the customer's id), and those on the main wallet.
   */
  userWhere(c: { user: FilteredFigures }): SQL | undefined;
  walletWhere(c: { wallet: CustomerCols['wallet'] }): SQL | undefined;
  /** Whether the filters read the main wallet. */
  wallet: boolean;
  sort: FigureSort | null;
  /** Whether any filter is given (a lead list then keeps only leads of a customer). */
  filtered: boolean;
  /** The condition "this user id is online now" (an index can serve it), and its negation (true for null ids). */
  online(userId: AnyPgColumn | SQL): SQL;
  offline(userId: AnyPgColumn | SQL): SQL;
}

const dayStart = (d: string) => new Date(`${d}T00:00:00Z`);
const dayAfter = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000);

function assertRange(min: string | undefined, max: string | undefined, field: string): void {
  if (min !== undefined && max !== undefined && dec(min).gt(dec(max)))
    throw fieldError(field, 'The minimum must not be above the maximum.');
}

/**
 * The Customer 360 part of a list request (`sort`, `dir` and the filters of Customer360Query), checked: a minimum
 * above its maximum or a first-deposit range ending before it starts is a 400. The online customers are asked of the
 * realtime rooms only when the online filter or sort is used.
 */
export async function customerQuery(
  ctx: Pick<AppContext, 'realtime'>,
  q: Customer360Query,
  opts: { walking?: boolean } = {},
): Promise<CustomerQuery> {
  assertRange(q.balanceMin, q.balanceMax, 'balanceMin');
  assertRange(q.equityMin, q.equityMax, 'equityMin');
  if (q.ftdFrom && q.ftdTo && q.ftdFrom > q.ftdTo) throw new AppError('INVALID_DATE_RANGE');
  // An export walks the list newest first by id (lib/csv-export.ts): it keeps the filters, not the sort.
  const sortKey = opts.walking ? undefined : q.sort;
  const needsOnline = q.online !== undefined || sortKey === 'online';
  const ids = needsOnline ? await onlineCustomerIds(ctx) : [];
  // One array parameter however many are online (ids are integers: nothing to escape).
  const online = (userId: AnyPgColumn | SQL) => sql`${userId} = any(${`{${ids.join(',')}}`}::int[])`;
  const offline = (userId: AnyPgColumn | SQL) => sql`not coalesce(${online(userId)}, false)`;
  const wallet = [q.balanceMin, q.balanceMax, q.equityMin, q.equityMax].some((v) => v !== undefined);
  const userWhere = (c: { user: FilteredFigures }) =>
    and(
      q.kyc ? eq(c.user.kycStatus, q.kyc) : undefined,
      q.ftd === 'yes' ? isNotNull(c.user.ftdAt) : q.ftd === 'no' ? isNull(c.user.ftdAt) : undefined,
      q.ftdFrom ? gte(c.user.ftdAt, dayStart(q.ftdFrom)) : undefined,
      q.ftdTo ? lt(c.user.ftdAt, dayAfter(q.ftdTo)) : undefined,
      q.online === 'yes' ? online(c.user.id) : q.online === 'no' ? offline(c.user.id) : undefined,
    );
  const walletWhere = (c: { wallet: CustomerCols['wallet'] }) =>
    and(
      q.balanceMin !== undefined ? gte(c.wallet.balance, q.balanceMin) : undefined,
      q.balanceMax !== undefined ? lte(c.wallet.balance, q.balanceMax) : undefined,
      q.equityMin !== undefined ? sql`${storedEquity(c.wallet)} >= ${q.equityMin}::numeric` : undefined,
      q.equityMax !== undefined ? sql`${storedEquity(c.wallet)} <= ${q.equityMax}::numeric` : undefined,
    );
  return {
    wallet,
    filtered: [q.kyc, q.ftd, q.ftdFrom, q.ftdTo, q.online].some((v) => v !== undefined) || wallet,
    online,
    offline,
    where: (c) => and(userWhere(c), walletWhere(c)),
    userWhere,
    walletWhere,
    sort: sortKey ? figureSort(sortKey, q.dir ?? 'desc', online) : null,
  };
}

function figureSort(key: Customer360Sort, dir: SortDirection, online: CustomerQuery['online']): FigureSort {
  const onUser = (column: (c: CustomerCols) => AnyPgColumn, nullable = true): FigureSort => ({
    key,
    dir,
    order: column,
    tie: (c) => c.user.id,
    has: (c) => (nullable ? isNotNull(column(c)) : isNotNull(c.user.id)),
    wallet: false,
  });
  switch (key) {
    case 'balance':
    case 'equity':
      return {
        key,
        dir,
        order: (c) => (key === 'balance' ? sql`${c.wallet.balance}` : storedEquity(c.wallet)),
        tie: (c) => c.wallet.id,
        has: (c) => isNotNull(c.wallet.id),
        wallet: true,
      };
    case 'ftd_at':
      return onUser((c) => c.user.ftdAt);
    case 'ftd_amount':
      return onUser((c) => c.user.ftdAmount);
    case 'kyc_status':
      return onUser((c) => c.user.kycStatus, false);
    case 'last_login_at':
      return onUser((c) => c.user.lastLoginAt);
    case 'online':
      return { key, dir, order: () => null, tie: (c) => c.user.id, has: (c) => online(c.user.id), wallet: false };
  }
}

/** ORDER BY of the figure's part of a page: the figure, then its tie-breaker, both in the asked direction. */
export function figureOrder(sort: FigureSort, c: CustomerCols, listId: AnyPgColumn): SQL[] {
  const dir = sql.raw(sort.dir);
  const order = sort.order(c);
  return order === null ? [sql`${listId} ${dir}`] : [sql`${order} ${dir}`, sql`${sort.tie(c)} ${dir}`];
}
