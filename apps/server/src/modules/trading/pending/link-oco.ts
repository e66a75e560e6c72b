import { eq } from 'drizzle-orm';
import { pendingOrders } from '../../../db/schema.ts';
import { AppError, fieldError } from '../../../lib/errors.ts';
import type { PendingRow } from './hooks.ts';
import { lockPending, ownedBy } from './pending-lock.ts';
import type { PendingCtx } from './pending-rules.ts';

/**
 * POST /dashboard/pending-orders/oco: links two waiting orders of one wallet so that when one fills or its owner
 * cancels it, the other is cancelled in the same transaction. An order belongs to one link at most.
 */
export async function linkOco(ctx: PendingCtx, userId: number, ids: [number, number]): Promise<PendingRow[]> {
  const [lo, hi] = ids[0] < ids[1] ? ids : [ids[1], ids[0]];
  const rows = await ctx.db.transaction(async (tx) => {
    // Both share a wallet (checked below), so locking in id order takes the wallet once, then the two orders.
    const a = await lockPending(tx, lo, ownedBy(userId));
    const b = await lockPending(tx, hi, ownedBy(userId));
    if (a.balanceId !== b.balanceId) throw fieldError('ids', 'Both orders must be on the same wallet.');
    if (a.ocoId !== null || b.ocoId !== null) throw new AppError('OCO_ALREADY_LINKED');
    const now = new Date();
    const [la] = await tx
      .update(pendingOrders)
      .set({ ocoId: b.id, updatedAt: now })
      .where(eq(pendingOrders.id, a.id))
      .returning();
    const [lb] = await tx
      .update(pendingOrders)
      .set({ ocoId: a.id, updatedAt: now })
      .where(eq(pendingOrders.id, b.id))
      .returning();
    return [la, lb];
  });
  for (const r of rows)
    ctx.realtime.toUser(userId, 'pendingOrdersChanged', {
      balanceId: r.balanceId,
      pendingOrderId: r.id,
      status: r.status,
    });
  return rows;
}
