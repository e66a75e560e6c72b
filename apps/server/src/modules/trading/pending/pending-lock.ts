import { and, eq, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.ts';
import { balances, pendingOrders } from '../../../db/schema.ts';
import { AppError } from '../../../lib/errors.ts';
import type { PendingRow } from './hooks.ts';

/**
 * A pending order the caller may touch (`scope`: its owner, or a staff member's customers), locked for a change: its
 * wallet first, then the order, the order fills take too, so a change and a fill never deadlock and one of them sees
 * the other's result. Not found (or not theirs) is a 404; an order that no longer waits is a 409.
 */
export async function lockPending(tx: DbOrTx, id: number, scope: SQL): Promise<PendingRow> {
  const [found] = await tx
    .select({ balanceId: pendingOrders.balanceId })
    .from(pendingOrders)
    .where(and(eq(pendingOrders.id, id), scope));
  if (!found) throw new AppError('PENDING_NOT_FOUND');
  await tx.select({ id: balances.id }).from(balances).where(eq(balances.id, found.balanceId)).for('update');
  const [row] = await tx.select().from(pendingOrders).where(eq(pendingOrders.id, id)).for('update');
  if (row.status !== 'pending') throw new AppError('PENDING_NOT_OPEN');
  return row;
}

/** The owner scope of a client's own calls. */
export const ownedBy = (userId: number): SQL => eq(pendingOrders.userId, userId) as SQL;
