import { and, eq, isNull, sql } from 'drizzle-orm';
import { reaches, pendingTrigger } from '@platform/domain';
import { pendingOrders } from '../../../db/schema.ts';
import { AppError } from '../../../lib/errors.ts';
import { notify } from '../../notifications/service.ts';
import { LimitRefusal } from '../../risk/limits.ts';
import { fillPendingOrder } from '../place-order.ts';
import type { PendingRow } from './hooks.ts';
import { pendingLabel, type PendingFacts } from './pending-facts.ts';
import type { PendingCtx } from './pending-rules.ts';

/** Refusals that will not pass on a later tick: the order is cancelled with the reason and its owner told. */
const FINAL_REFUSALS = new Set([
  'INSUFFICIENT_FREE_MARGIN',
  'INSUFFICIENT_BALANCE',
  'KYC_REQUIRED_TRADE',
  'NOT_TRADABLE',
  'INSTRUMENT_NOT_FOUND',
  'INVALID_TAKE_PROFIT',
  'INVALID_STOP_LOSS',
  'TOO_MANY_POSITIONS',
  'NO_ACTIVE_WALLET',
  // A netting account already holds a position the same way on the instrument.
  'NETTING_SAME_SIDE',
]);

export type TriggerOutcome =
  | { kind: 'filled'; orderId: number; ocoCancelledId: number | null }
  | { kind: 'activated'; row: PendingRow; fillNow: boolean }
  | { kind: 'cancelled'; row: PendingRow }
  /** It no longer waits as the trigger saw it: the current row, or null when it stopped waiting. */
  | { kind: 'changed'; row: PendingRow | null }
  /** A passing failure (no price, no rate, a conflict): it waits again and the next tick retries. */
  | { kind: 'retry'; error: unknown };

/**
 * What a tick that reaches a waiting order does (the leader only): a stop-limit's stop places its limit (which may
 * fill on the same tick); any other order opens its position at the tick's quote through the order path, which marks
 * it filled and cancels its OCO partner in the same statement. An order that cannot fill for good reasons (free
 * margin, KYC, levels the fill price has passed) is cancelled with that reason and its owner told.
 */
export async function triggerPending(
  ctx: PendingCtx,
  f: PendingFacts,
  quote: { bid: number; ask: number },
  digits: number,
): Promise<TriggerOutcome> {
  if (f.kind === 'stop_limit' && !f.activated) {
    const [row] = await ctx.db
      .update(pendingOrders)
      .set({ activatedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(pendingOrders.id, f.id), eq(pendingOrders.status, 'pending'), isNull(pendingOrders.activatedAt)))
      .returning();
    if (!row) return { kind: 'changed', row: await current(ctx, f.id) };
    const limit = pendingTrigger(f.side, f.kind, true);
    return { kind: 'activated', row, fillNow: reaches(limit.trigger, Number(row.limitPrice ?? row.price), quote) };
  }
  try {
    const { order, ocoCancelledId } = await fillPendingOrder(
      ctx,
      f.userId,
      { type: f.side, instrument: f.instrument, amount: f.amount, profit: f.profit, loss: f.loss },
      {
        pendingOrderId: f.id,
        walletId: f.walletId,
        quote: { bid: quote.bid.toFixed(digits), ask: quote.ask.toFixed(digits) },
      },
    );
    // On a netting account the fill may be a deal that reduced or closed a position: its price is the close rate.
    const price = order.closeRate ?? order.openRate;
    const what = order.closeTime ? `deal #${order.id}` : `position #${order.id}`;
    await notify(ctx, f.userId, {
      title: 'Pending order filled',
      description: `Your ${pendingLabel(f)} ${f.instrument} order #${f.id} filled at ${price}: ${what}.`,
      url: '/dashboard',
    });
    return { kind: 'filled', orderId: order.id, ocoCancelledId };
  } catch (err) {
    if (err instanceof AppError && err.code === 'PENDING_NOT_OPEN')
      return { kind: 'changed', row: await current(ctx, f.id) };
    if (err instanceof LimitRefusal || (err instanceof AppError && FINAL_REFUSALS.has(err.code))) {
      const row = await cancelForGood(ctx, f, err.message);
      return row ? { kind: 'cancelled', row } : { kind: 'changed', row: await current(ctx, f.id) };
    }
    return { kind: 'retry', error: err };
  }
}

async function current(ctx: PendingCtx, id: number): Promise<PendingRow | null> {
  const [row] = await ctx.db.select().from(pendingOrders).where(eq(pendingOrders.id, id));
  return row?.status === 'pending' ? row : null;
}

/** Cancels an order the server could not fill, once, and tells its owner why. */
async function cancelForGood(ctx: PendingCtx, f: PendingFacts, why: string): Promise<PendingRow | null> {
  const reason = `Not filled: ${why}`;
  const [row] = await ctx.db
    .update(pendingOrders)
    .set({ status: 'cancelled', reason, closedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(pendingOrders.id, f.id), eq(pendingOrders.status, 'pending')))
    .returning();
  if (!row) return null;
  await notify(ctx, f.userId, {
    title: 'Pending order cancelled',
    description: `Your ${pendingLabel(f)} ${f.instrument} order #${f.id} was reached but could not fill: ${why}`,
    url: '/dashboard',
  });
  return row;
}
