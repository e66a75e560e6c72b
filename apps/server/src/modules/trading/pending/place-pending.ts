import { and, count, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { OrderCreateRequest, PendingKindName } from '@platform/domain';
import { balances, pendingOrders } from '../../../db/schema.ts';
import { AppError } from '../../../lib/errors.ts';
import { needsKyc, quoteOf, tradableInstrument } from '../order-pricing.ts';
import { kycRequiredForTrade, loadTrader, tradingSettings } from '../trader.ts';
import type { PendingRow } from './hooks.ts';
import { MAX_PENDING_ORDERS, checkPendingPrices, expiryOf, positiveAmount, type PendingCtx } from './pending-rules.ts';

/**
 * POST /dashboard/orders with a pending orderType: stores the order on the caller's active wallet after checking its
 * prices against the current quote, its TP/SL against its own price, the KYC switch and the wallet's cap. Nothing is
 * reserved while it waits: margin is checked when it fills (docs/decisions.md).
 */
export async function placePending(
  ctx: PendingCtx,
  userId: number,
  input: z.output<typeof OrderCreateRequest>,
): Promise<PendingRow> {
  const kind = input.orderType as PendingKindName;
  const amount = positiveAmount(input.amount);
  const instrument = tradableInstrument(ctx, input.instrument);
  const quote = quoteOf(ctx, instrument);
  const price = input.price ?? '0';
  const limitPrice = kind === 'stop_limit' ? (input.limitPrice ?? '0') : null;
  checkPendingPrices({ side: input.type, kind, price, limitPrice, profit: input.profit, loss: input.loss }, quote);
  const { expiry, expiresAt } = expiryOf(input.expiry, instrument);
  const trader = await loadTrader(ctx.db, userId);
  if (needsKyc(kycRequiredForTrade(await tradingSettings(ctx.db)), trader)) throw new AppError('KYC_REQUIRED_TRADE');

  const row = await ctx.db.transaction(async (tx) => {
    // The wallet lock orders this insert with the wallet's other pending changes and fills (no two pass the cap).
    await tx.select({ id: balances.id }).from(balances).where(eq(balances.id, trader.wallet.id)).for('update');
    const [{ n }] = await tx
      .select({ n: count() })
      .from(pendingOrders)
      .where(and(eq(pendingOrders.balanceId, trader.wallet.id), eq(pendingOrders.status, 'pending')));
    if (n >= MAX_PENDING_ORDERS) throw new AppError('TOO_MANY_PENDING');
    const [inserted] = await tx
      .insert(pendingOrders)
      .values({
        userId,
        balanceId: trader.wallet.id,
        instrumentId: instrument.id,
        instrument: instrument.name,
        side: input.type,
        orderType: kind,
        amount,
        price,
        limitPrice,
        takeProfit: input.profit,
        stopLoss: input.loss,
        expiry,
        expiresAt,
      })
      .returning();
    return inserted;
  });
  ctx.pending.waiting(row);
  ctx.realtime.toUser(userId, 'pendingOrdersChanged', {
    balanceId: row.balanceId,
    pendingOrderId: row.id,
    status: row.status,
  });
  return row;
}
