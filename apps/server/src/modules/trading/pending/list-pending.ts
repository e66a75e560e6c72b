import { and, count, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  AdminPendingDto,
  AdminPendingQuery,
  HistoryEntry,
  HistoryQuery,
  HistoryResponse,
  PendingOrdersResponse,
} from '@platform/domain';
import type { Db } from '../../../db/client.ts';
import { balances, orders, pendingOrders, users } from '../../../db/schema.ts';
import { AppError } from '../../../lib/errors.ts';
import { offsetOf, pageMeta, searchAny } from '../../../lib/paging.ts';
import { customerScope, type StaffActor } from '../../../lib/staff-scope.ts';
import type { InstrumentRegistry } from '../../../market/instruments.ts';
import { orderDto } from '../order-dto.ts';
import { loadTrader } from '../trader.ts';
import { pendingDto } from './pending-dto.ts';

type Instruments = Pick<InstrumentRegistry, 'byIdOf'>;

/** The caller's active wallet, or null for callers without one (staff). */
async function activeWallet(db: Db, userId: number): Promise<number | null> {
  try {
    return (await loadTrader(db, userId)).wallet.id;
  } catch (err) {
    if (err instanceof AppError && err.code === 'NO_ACTIVE_WALLET') return null;
    throw err;
  }
}

/** GET /dashboard/pending-orders: the active wallet's waiting orders, newest first (at most the wallet's cap). */
export async function listPending(db: Db, instruments: Instruments, userId: number): Promise<PendingOrdersResponse> {
  const wallet = await activeWallet(db, userId);
  if (wallet === null) return { data: [] };
  const rows = await db
    .select()
    .from(pendingOrders)
    .where(
      and(eq(pendingOrders.balanceId, wallet), eq(pendingOrders.userId, userId), eq(pendingOrders.status, 'pending')),
    )
    .orderBy(desc(pendingOrders.id));
  return { data: rows.map((r) => pendingDto(instruments, r)) };
}

/**
 * GET /dashboard/orders/history: the active wallet's closed deals (partial closes included, voided trades left out)
 * and its pending orders that filled, were cancelled or expired, newest first, in one paged list.
 */
export async function listHistory(
  db: Db,
  instruments: Instruments,
  userId: number,
  q: z.output<typeof HistoryQuery>,
): Promise<HistoryResponse> {
  const wallet = await activeWallet(db, userId);
  if (wallet === null) return { data: [], meta: pageMeta(q, 0) };
  const deals = db
    .select({ entry: sql<string>`'deal'`.as('entry'), id: orders.id, t: sql<Date>`${orders.closeTime}`.as('t') })
    .from(orders)
    .where(and(eq(orders.balanceId, wallet), sql`${orders.closeTime} is not null`, isNull(orders.voidedAt)));
  const done = db
    .select({ entry: sql<string>`'order'`, id: pendingOrders.id, t: sql<Date>`${pendingOrders.closedAt}` })
    .from(pendingOrders)
    .where(and(eq(pendingOrders.balanceId, wallet), ne(pendingOrders.status, 'pending')));
  const all = deals.unionAll(done).as('history');
  const [page, [{ n }]] = await Promise.all([
    db.select().from(all).orderBy(desc(all.t), desc(all.id)).limit(q.limit).offset(offsetOf(q)),
    db.select({ n: count() }).from(all),
  ]);
  const dealIds = page.filter((r) => r.entry === 'deal').map((r) => r.id);
  const orderIds = page.filter((r) => r.entry === 'order').map((r) => r.id);
  const [dealRows, orderRows] = await Promise.all([
    dealIds.length ? db.select().from(orders).where(inArray(orders.id, dealIds)) : [],
    orderIds.length ? db.select().from(pendingOrders).where(inArray(pendingOrders.id, orderIds)) : [],
  ]);
  const dealById = new Map(dealRows.map((r) => [r.id, r]));
  const orderById = new Map(orderRows.map((r) => [r.id, r]));
  const data: HistoryEntry[] = [];
  for (const r of page) {
    if (r.entry === 'deal') {
      const d = dealById.get(r.id);
      if (d?.closeTime) data.push({ entry: 'deal', time: d.closeTime.toISOString(), deal: orderDto(d) });
    } else {
      const o = orderById.get(r.id);
      if (o?.closedAt) data.push({ entry: 'order', time: o.closedAt.toISOString(), order: pendingDto(instruments, o) });
    }
  }
  return { data, meta: pageMeta(q, n) };
}

/** Back office: pending orders of the customers the staff member may see, filtered by status, customer and search. */
export async function listPendingForStaff(
  db: Db,
  instruments: Instruments,
  staff: StaffActor,
  q: z.output<typeof AdminPendingQuery>,
): Promise<{ data: AdminPendingDto[]; meta: ReturnType<typeof pageMeta> }> {
  const where = and(
    customerScope(staff, pendingOrders.userId),
    q.status ? eq(pendingOrders.status, q.status) : undefined,
    q.userId ? eq(pendingOrders.userId, q.userId) : undefined,
    searchAny(q.search, [users.email, pendingOrders.instrument]),
  );
  const [rows, [{ n }]] = await Promise.all([
    db
      .select({ p: pendingOrders, email: users.email, mode: balances.mode, currency: balances.currency })
      .from(pendingOrders)
      .innerJoin(users, eq(users.id, pendingOrders.userId))
      .innerJoin(balances, eq(balances.id, pendingOrders.balanceId))
      .where(where)
      .orderBy(desc(pendingOrders.id))
      .limit(q.limit)
      .offset(offsetOf(q)),
    db.select({ n: count() }).from(pendingOrders).innerJoin(users, eq(users.id, pendingOrders.userId)).where(where),
  ]);
  return {
    data: rows.map((r) => ({
      ...pendingDto(instruments, r.p),
      user: { id: r.p.userId, email: r.email },
      balance: { mode: r.mode, currency: r.currency },
    })),
    meta: pageMeta(q, n),
  };
}
