import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { closePrice, dec, openOrderBounds, type Decimal, type OrderUpdateRequest, type Side } from '@platform/domain';
import { orders } from '../../db/schema.ts';
import type { OrderRow } from '../../engine/hooks.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import type { InstrumentRow } from '../../market/instruments.ts';
import { checkLevels, quoteOf, type Ctx } from './order-pricing.ts';

type Trailing = NonNullable<z.output<typeof OrderUpdateRequest>['trailing']>;

/**
 * PUT /dashboard/orders/{id}: new take-profit and/or stop-loss on the caller's open order, within the §5 bounds, and
 * a trailing stop set or removed. A trailing stop set while the market is open puts the stop-loss where it trails to
 * at once when that is better than the one it has; from then on the risk engine's leader moves it.
 */
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
    const side = o.type as Side;
    checkLevels(side, openOrderBounds(side, o.openRate), input.profit, input.loss);
    let stopLoss = input.loss !== undefined ? input.loss : o.stopLoss;
    let trailing: { trailingDistance: string | null; trailingStep: string | null } | null = null;
    if (input.trailing === null) trailing = { trailingDistance: null, trailingStep: null };
    else if (input.trailing !== undefined) {
      const instrument = ctx.market.instruments.byIdOf(o.instrumentId);
      if (!instrument) throw new AppError('INSTRUMENT_NOT_FOUND');
      const close = closePrice(side, quoteOf(ctx, instrument));
      const { distance, step } = checkTrailing(instrument, side, close, input.trailing);
      trailing = { trailingDistance: distance.toString(), trailingStep: step.toString() };
      if (ctx.market.isOpen(instrument.category)) stopLoss = trailedStop(side, close, distance, step, stopLoss);
    }
    const [row] = await tx
      .update(orders)
      .set({
        ...(input.profit !== undefined ? { takeProfit: input.profit } : {}),
        ...(stopLoss !== o.stopLoss ? { stopLoss } : {}),
        ...(trailing ?? {}),
      })
      .where(eq(orders.id, o.id))
      .returning();
    return row;
  });
  ctx.risk.levelsChanged(order);
  ctx.realtime.toUser(userId, 'ordersChanged', { balanceId: order.balanceId, orderId: order.id, reason: 'modified' });
  return order;
}

/**
 * A trailing stop's bounds: distance and step at the instrument's precision, the step at most the distance, and a
 * distance below the current close price (a buy's stop-loss would otherwise sit at or below zero at once; a sell's
 * would trail more than the whole price away). 400 with a message otherwise.
 */
function checkTrailing(
  instrument: InstrumentRow,
  side: Side,
  close: Decimal,
  t: Trailing,
): { distance: Decimal; step: Decimal } {
  const distance = dec(t.distance);
  const step = dec(t.step);
  const digits = instrument.digits;
  if (distance.decimalPlaces() > digits || step.decimalPlaces() > digits)
    throw fieldError('trailing', `${instrument.name} is quoted to ${digits} decimals: use at most that many.`);
  if (distance.lte(0)) throw fieldError('trailing', 'The trailing distance must be above zero');
  if (step.gt(distance)) throw fieldError('trailing', 'The trailing step must not exceed the distance.');
  if (distance.gte(close)) {
    const price = close.toFixed(digits);
    throw fieldError(
      'trailing',
      side === 'buy'
        ? `A trailing distance of ${distance.toString()} would put the stop-loss at or below zero: the bid is ${price}.`
        : `The trailing distance must be below the ask (${price}).`,
    );
  }
  return { distance, step };
}

/** Where a trailing stop puts the stop-loss at `close`, when that is better than `current` by the step (as the engine moves it). */
function trailedStop(
  side: Side,
  close: Decimal,
  distance: Decimal,
  step: Decimal,
  current: string | null,
): string | null {
  const trailed = side === 'buy' ? close.minus(distance) : close.plus(distance);
  if (current === null) return trailed.toString();
  const better =
    side === 'buy'
      ? trailed.gt(current) && trailed.gte(dec(current).plus(step))
      : trailed.lt(current) && trailed.lte(dec(current).minus(step));
  return better ? trailed.toString() : current;
}
