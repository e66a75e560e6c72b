import { eq } from 'drizzle-orm';
import { orders } from '../../db/schema.ts';
import { statementsOf } from '../../db/statements.ts';
import type { OrderRow } from '../../engine/hooks.ts';
import { orderOfColumns, type OrderColumns } from './order-statements.ts';
import type { Ctx } from './order-pricing.ts';
import { MOVE_TRAILING_STOP } from './position-statements.ts';

/**
 * A trailing stop's move on a quote the risk engine found it reaches (the leader only): the stop-loss follows the
 * price under a conditional update of the row's own figures (position-statements.ts), so it never moves back and a
 * stale move changes nothing. A move is told to the risk engines (levelsChanged) and pushed live to the client.
 * Returns the position as stored, or null when nothing moved.
 */
export async function moveTrailingStop(
  ctx: Ctx,
  orderId: number,
  quote: { bid: string; ask: string },
): Promise<OrderRow | null> {
  const [row] = await statementsOf(ctx.db).rows<OrderColumns>(MOVE_TRAILING_STOP, [orderId, quote.bid, quote.ask]);
  if (!row) return null;
  const order = orderOfColumns(row);
  ctx.risk.levelsChanged(order);
  ctx.realtime.toUser(order.userId, 'ordersChanged', {
    balanceId: order.balanceId,
    orderId: order.id,
    reason: 'modified',
  });
  return order;
}

/** A position's trailing figures as stored now (after a move that changed nothing), or null once closed. */
export async function trailingOf(ctx: Pick<Ctx, 'db'>, orderId: number): Promise<OrderRow | null> {
  const [row] = await ctx.db.select().from(orders).where(eq(orders.id, orderId));
  return row && !row.closeTime ? row : null;
}
