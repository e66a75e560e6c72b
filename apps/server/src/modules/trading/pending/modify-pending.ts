import { eq, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { PendingKindName, PendingOrderUpdateRequest, Side } from '@platform/domain';
import { pendingOrders } from '../../../db/schema.ts';
import { writeAudit } from '../../../lib/audit.ts';
import { fieldError } from '../../../lib/errors.ts';
import type { StaffActor } from '../../../lib/staff-scope.ts';
import { quoteOf, tradableInstrument } from '../order-pricing.ts';
import type { PendingRow } from './hooks.ts';
import { lockPending } from './pending-lock.ts';
import { checkPendingPrices, expiryOf, type PendingCtx } from './pending-rules.ts';

/**
 * PUT /dashboard/pending-orders/{id} (and the staff edit): a waiting order's price, limit price, TP/SL or expiry,
 * checked as when it was placed against the current quote. A stop-limit whose stop was already crossed waits as a
 * limit order: only its limit price, TP/SL and expiry can change.
 */
export async function modifyPending(
  ctx: PendingCtx,
  id: number,
  scope: SQL,
  input: z.output<typeof PendingOrderUpdateRequest>,
  staff?: StaffActor,
): Promise<PendingRow> {
  const row = await ctx.db.transaction(async (tx) => {
    const o = await lockPending(tx, id, scope);
    const kind = o.orderType as PendingKindName;
    const activated = o.activatedAt !== null;
    if (input.limitPrice !== undefined && kind !== 'stop_limit')
      throw fieldError('limitPrice', 'Only a stop-limit order has a limit price');
    if (input.price !== undefined && activated && input.price !== o.price)
      throw fieldError('price', 'The stop price was already reached: change the limit price instead.');
    const instrument = tradableInstrument(ctx, o.instrument);
    const next = {
      side: o.side as Side,
      kind,
      price: input.price ?? o.price,
      limitPrice: input.limitPrice ?? o.limitPrice,
      profit: input.profit !== undefined ? input.profit : o.takeProfit,
      loss: input.loss !== undefined ? input.loss : o.stopLoss,
    };
    checkPendingPrices(next, quoteOf(ctx, instrument), activated);
    const expiry = input.expiry !== undefined ? expiryOf(input.expiry, instrument) : null;
    const [updated] = await tx
      .update(pendingOrders)
      .set({
        price: next.price,
        limitPrice: next.limitPrice,
        takeProfit: next.profit,
        stopLoss: next.loss,
        ...(expiry ?? {}),
        updatedAt: new Date(),
      })
      .where(eq(pendingOrders.id, o.id))
      .returning();
    if (staff)
      await writeAudit(tx, {
        actorId: staff.id,
        targetUserId: o.userId,
        action: 'pending_order.update',
        subjectType: 'pending_order',
        subjectId: o.id,
        before: snapshot(o),
        after: snapshot(updated),
        ip: staff.ip,
      });
    return updated;
  });
  ctx.pending.waiting(row);
  ctx.realtime.toUser(row.userId, 'pendingOrdersChanged', {
    balanceId: row.balanceId,
    pendingOrderId: row.id,
    status: row.status,
  });
  return row;
}

/** The fields an audit row keeps of a pending order. */
export const snapshot = (o: PendingRow): Record<string, unknown> => ({
  status: o.status,
  price: o.price,
  limitPrice: o.limitPrice,
  takeProfit: o.takeProfit,
  stopLoss: o.stopLoss,
  expiresAt: o.expiresAt?.toISOString() ?? null,
  reason: o.reason,
});
