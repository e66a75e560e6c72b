import { type CloseReason, type Side, closePrice, dec, profitLoss } from '@platform/domain';
import { statementsOf } from '../../db/statements.ts';
import type { OrderRow } from '../../engine/hooks.ts';
import { AppError } from '../../lib/errors.ts';
import { ordersClosed } from '../../lib/metrics.ts';
import { emitNotification, notificationDto } from '../notifications/service.ts';
import { CLOSE_ORDER, LOAD_ORDER, orderOfColumns, type OrderColumns } from './order-statements.ts';
import { conversionOf, quoteOf, round, str, type Ctx } from './order-pricing.ts';
import { closeCommission } from './commission.ts';
import { commissionKeyOf, forgetTrader, planOfUser } from './trader.ts';
import { tradingMemoryOf, type OpenOrderFacts } from './trading-memory.ts';
import { partnerDealClosed } from '../partners/hook.ts';

const REASON_TITLES: Record<CloseReason, string> = {
  manual: 'Order closed',
  admin: 'Order closed by the broker',
  take_profit: 'Take profit reached',
  stop_loss: 'Stop loss reached',
  stop_out: 'Stop out',
};

export interface CloseOptions {
  orderId: number;
  reason: CloseReason;
  /** Only this user's order may be closed (the client's own call); omitted for staff and the risk engine. */
  ownerId?: number;
  actorId?: number | null;
  /** The price that triggered an automatic close; manual closes fill at the current quote. */
  price?: number;
}

type ClosedColumns = (OrderColumns | { [K in keyof OrderColumns]: null }) & {
  current_amount: string;
  commission_key: string;
  wallet_balance: string;
  notice_id: number | null;
  notice_title: string;
  notice_description: string | null;
  notice_url: string | null;
  notice_read_at: Date | null;
  notice_created_at: Date;
};

/**
 * Closes an open position at the server's price (buy at bid, sell at ask). One statement, with the wallet and the
 * order locked, books the P/L and the spread cost as ledger entries, credits negative balance protection for
 * whatever would take the balance below zero, releases the margin hold and stamps the order with its reason.
 */
export async function closeOrder(ctx: Ctx, opts: CloseOptions): Promise<OrderRow> {
  // A client's close is the order path the rollover yields to; the engine's own closes (stop-outs, SL/TP) are not.
  if (opts.reason !== 'manual') return closeOrderNow(ctx, opts);
  return tradingMemoryOf(ctx.db).orderPath.time(() => closeOrderNow(ctx, opts));
}

async function closeOrderNow(ctx: Ctx, opts: CloseOptions): Promise<OrderRow> {
  const memory = tradingMemoryOf(ctx.db);
  let facts = memory.openOrder(opts.orderId);
  if (facts && opts.ownerId !== undefined && facts.order.userId !== opts.ownerId) throw new AppError('ORDER_NOT_FOUND');
  facts ??= await loadOpenOrder(ctx, opts.orderId, opts.ownerId);
  // A partial close elsewhere changed the amount the close was priced with: priced again from the row.
  for (let attempt = 0; attempt < 3; attempt++) {
    const closed = await closeWith(ctx, opts, facts);
    if (closed) return closed;
    facts = await loadOpenOrder(ctx, opts.orderId, opts.ownerId);
  }
  throw new AppError('CONFLICT', 'The position changed while it was closed. Please try again.');
}

/** An open position's facts from the database (remembered for the next close); 404 or "closed" otherwise. */
export async function loadOpenOrder(ctx: Ctx, orderId: number, ownerId: number | undefined): Promise<OpenOrderFacts> {
  const [found] = await statementsOf(ctx.db).rows<OrderColumns & { wallet_currency: string }>(LOAD_ORDER, [
    orderId,
    ownerId ?? null,
  ]);
  if (!found) throw new AppError('ORDER_NOT_FOUND');
  if (found.close_time) throw new AppError('ORDER_CLOSED');
  const facts = { order: orderOfColumns(found), walletCurrency: found.wallet_currency };
  tradingMemoryOf(ctx.db).rememberOpenOrder(facts);
  return facts;
}

/** The close in the wallet's queue, with the newest facts this process knows, or null when they are stale. */
async function closeWith(ctx: Ctx, opts: CloseOptions, facts: OpenOrderFacts): Promise<OrderRow | null> {
  const memory = tradingMemoryOf(ctx.db);
  return memory.walletQueue.run(facts.order.balanceId, () =>
    closeNow(ctx, opts, memory.openOrder(opts.orderId) ?? facts),
  );
}

/**
 * The close statement itself, for callers already in the wallet's queue (a partial close of the whole amount). Null
 * when the position's amount or spread are no longer those of `facts`.
 */
export async function closeNow(ctx: Ctx, opts: CloseOptions, facts: OpenOrderFacts): Promise<OrderRow | null> {
  const memory = tradingMemoryOf(ctx.db);
  const o = facts.order;
  const currency = facts.walletCurrency;
  const instrument = ctx.market.instruments.byIdOf(o.instrumentId);
  if (!instrument) throw new AppError('INSTRUMENT_NOT_FOUND');
  if (opts.reason === 'manual' && !ctx.market.isOpen(instrument.category)) throw new AppError('MARKET_CLOSED');
  const side = o.type as Side;
  const rate =
    opts.price !== undefined ? dec(opts.price.toFixed(instrument.digits)) : closePrice(side, quoteOf(ctx, instrument));
  const conversion = conversionOf(ctx, o.quoteSymbol, currency);
  const pl = round(
    profitLoss({
      side,
      openRate: o.openRate,
      closeRate: rate,
      amount: o.tradeAmount,
      spread: o.spread,
      conversionRate: conversion,
    }),
  );
  const spreadCharge = round(dec(o.spread).div(conversion));
  const plan = await planOfUser(ctx.db, o.userId);
  const commission = closeCommission(ctx, plan, instrument, o.tradeAmount, rate, conversion, currency);
  const commissionKey = commissionKeyOf(plan, instrument.category);
  const gross = pl.plus(spreadCharge);
  const automatic = opts.reason === 'take_profit' || opts.reason === 'stop_loss' || opts.reason === 'stop_out';
  const noticeTitle = automatic || opts.reason === 'admin' ? REASON_TITLES[opts.reason] : null;
  const noticeText = `Your ${o.type} ${o.baseSymbol}/${o.quoteSymbol} position #${o.id} was closed at ${rate.toString()} with a result of ${pl.toFixed(2)} ${currency}.`;
  const [row] = await statementsOf(ctx.db).rows<ClosedColumns>(CLOSE_ORDER, [
    o.id,
    opts.ownerId ?? null,
    opts.actorId ?? null,
    str(gross),
    str(spreadCharge),
    str(rate),
    str(pl),
    opts.reason,
    `${o.type} ${o.instrument} closed at ${rate.toString()}`,
    noticeTitle,
    noticeTitle ? noticeText : null,
    o.tradeAmount,
    o.spread,
    str(commission),
    commissionKey,
  ]);
  memory.forgetOpenOrder(o.id);
  // Found open a moment ago: closed since by someone else (its owner, staff, the risk engine or another server).
  if (!row) throw new AppError('ORDER_CLOSED');
  if (row.id === null) {
    // The plan's commission changed since it was remembered: read again, then priced again.
    if (row.commission_key !== commissionKey) forgetTrader(ctx.db, o.userId);
    return null;
  }
  const order = orderOfColumns(row);
  ordersClosed.inc({ reason: opts.reason });
  partnerDealClosed(ctx.db, order.id);
  ctx.risk.closed(order, { id: order.balanceId, balance: row.wallet_balance });
  if (row.notice_id !== null) {
    emitNotification(
      ctx,
      order.userId,
      notificationDto({
        id: row.notice_id,
        userId: order.userId,
        title: row.notice_title,
        description: row.notice_description,
        url: row.notice_url,
        readAt: row.notice_read_at,
        createdAt: row.notice_created_at,
      }),
    );
  }
  ctx.realtime.toUser(order.userId, 'ordersChanged', {
    balanceId: order.balanceId,
    orderId: order.id,
    reason: opts.reason,
  });
  return order;
}
