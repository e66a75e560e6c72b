import { and, count, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { OrdersQuery, OrdersResponse } from '@platform/domain';
import type { Db } from '../../db/client.ts';
import { orders } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { offsetOf, pageMeta } from '../../lib/paging.ts';
import { orderDto } from './order-dto.ts';
import { loadTrader } from './trader.ts';

/** GET /dashboard/orders: the active wallet's positions; every open one for status=open, else paged, newest first. */
export async function listOrders(db: Db, userId: number, q: z.output<typeof OrdersQuery>): Promise<OrdersResponse> {
  const trader = await loadTrader(db, userId).catch((err: unknown) => {
    // Staff without a wallet simply have no positions.
    if (err instanceof AppError && err.code === 'NO_ACTIVE_WALLET') return null;
    throw err;
  });
  if (!trader) return { data: [], meta: pageMeta(q, 0) };
  const where = and(
    eq(orders.balanceId, trader.wallet.id),
    // Trades staff voided are gone from the client's lists; their money was reversed.
    isNull(orders.voidedAt),
    q.status === 'open' ? isNull(orders.closeTime) : q.status === 'closed' ? isNotNull(orders.closeTime) : undefined,
  );
  if (q.status === 'open') {
    const rows = await db.select().from(orders).where(where).orderBy(desc(orders.id));
    return { data: rows.map(orderDto), meta: { total: rows.length, per_page: rows.length, page: 1 } };
  }
  const [rows, [{ n }]] = await Promise.all([
    db.select().from(orders).where(where).orderBy(desc(orders.id)).limit(q.limit).offset(offsetOf(q)),
    db.select({ n: count() }).from(orders).where(where),
  ]);
  return { data: rows.map(orderDto), meta: pageMeta(q, n) };
}
