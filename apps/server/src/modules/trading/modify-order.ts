import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { openOrderBounds, type OrderUpdateRequest, type Side } from '@platform/domain';
import { orders } from '../../db/schema.ts';
import type { OrderRow } from '../../engine/hooks.ts';
import { AppError } from '../../lib/errors.ts';
import { checkLevels, type Ctx } from './order-pricing.ts';

/** PUT /dashboard/orders/{id}: new take-profit and/or stop-loss on the caller's open order, within the §5 bounds. */
export async function updateOrderLevels(
  ctx: Ctx,
  userId: number,
  orderId: number,
  input: z.output<typeof OrderUpdateRequest>,
): Promise<OrderRow> {
  const order = await ctx.db.transaction(async (tx) => {
    const [o] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.id, orderId), eq(orders.userId, userId)))
      .for('update');
    if (!o) throw new AppError('ORDER_NOT_FOUND');
    if (o.closeTime) throw new AppError('ORDER_CLOSED');
    checkLevels(o.type as Side, openOrderBounds(o.type as Side, o.openRate), input.profit, input.loss);
    const [row] = await tx
      .update(orders)
      .set({
        ...(input.profit !== undefined ? { takeProfit: input.profit } : {}),
        ...(input.loss !== undefined ? { stopLoss: input.loss } : {}),
      })
      .where(eq(orders.id, o.id))
      .returning();
    return row;
  });
  ctx.risk.levelsChanged(order);
  ctx.realtime.toUser(userId, 'ordersChanged', { balanceId: order.balanceId, orderId: order.id, reason: 'modified' });
  return order;
}
