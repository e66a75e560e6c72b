import { and, eq, type SQL } from 'drizzle-orm';
import { pendingOrders } from '../../../db/schema.ts';
import { writeAudit } from '../../../lib/audit.ts';
import type { StaffActor } from '../../../lib/staff-scope.ts';
import type { PendingRow } from './hooks.ts';
import { snapshot } from './modify-pending.ts';
import { lockPending } from './pending-lock.ts';
import type { PendingCtx } from './pending-rules.ts';

/**
 * DELETE /dashboard/pending-orders/{id} and the staff cancel: one way, once (a second cancel or a cancel after the
 * fill is a 409). A client's cancel also cancels its OCO partner in the same transaction; a staff cancel records its
 * reason and is audited.
 */
export async function cancelPending(
  ctx: PendingCtx,
  id: number,
  scope: SQL,
  by: { userId: number; staff?: StaffActor; reason?: string },
): Promise<PendingRow[]> {
  const rows = await ctx.db.transaction(async (tx) => {
    const o = await lockPending(tx, id, scope);
    const reason = by.staff ? `Cancelled by the broker: ${by.reason ?? ''}`.trim() : 'Cancelled by the client';
    const now = new Date();
    const [cancelled] = await tx
      .update(pendingOrders)
      .set({ status: 'cancelled', reason, closedAt: now, updatedAt: now, closedBy: by.userId })
      .where(eq(pendingOrders.id, o.id))
      .returning();
    const out = [cancelled];
    if (o.ocoId !== null && !by.staff) {
      const partner = await tx
        .update(pendingOrders)
        .set({
          status: 'cancelled',
          reason: `Cancelled with its OCO order #${o.id}`,
          closedAt: now,
          updatedAt: now,
          closedBy: by.userId,
        })
        .where(and(eq(pendingOrders.id, o.ocoId), eq(pendingOrders.status, 'pending')))
        .returning();
      out.push(...partner);
    }
    if (by.staff)
      await writeAudit(tx, {
        actorId: by.staff.id,
        targetUserId: o.userId,
        action: 'pending_order.cancel',
        subjectType: 'pending_order',
        subjectId: o.id,
        before: snapshot(o),
        after: snapshot(cancelled),
        ip: by.staff.ip,
      });
    return out;
  });
  for (const r of rows) {
    ctx.pending.gone(r.id);
    ctx.realtime.toUser(r.userId, 'pendingOrdersChanged', {
      balanceId: r.balanceId,
      pendingOrderId: r.id,
      status: r.status,
    });
  }
  return rows;
}
