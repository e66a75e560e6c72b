import { closePrice, dec, profitLoss, type Decimal, type Side } from '@platform/domain';
import { statementsOf } from '../../db/statements.ts';
import type { OrderRow } from '../../engine/hooks.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import { ordersClosed } from '../../lib/metrics.ts';
import { emitNotification, notificationDto } from '../notifications/service.ts';
import { closeNow, loadOpenOrder } from './close-order.ts';
import { closeCommission } from './commission.ts';
import { checkPartSize, sizeRuleOf } from './lot-rules.ts';
import { orderOfColumns, type OrderColumns } from './order-statements.ts';
import { conversionOf, quoteOf, round, str, type Ctx } from './order-pricing.ts';
import { CLOSE_PART, type ClosePartRow } from './position-statements.ts';
import { commissionKeyOf, forgetTrader, planOfUser, tradingSettings } from './trader.ts';
import { tradingMemoryOf, type OpenOrderFacts } from './trading-memory.ts';
import { partnerDealClosed } from '../partners/hook.ts';

export interface PartialCloseOptions {
  orderId: number;
  /** The part of the position's amount to close; the whole amount is an ordinary close. */
  amount: string;
  reason: 'manual' | 'admin';
  /** Only this user's position (the client's own call); omitted for staff. */
  ownerId?: number;
  actorId?: number | null;
}

export interface PartialClosed {
  /** The closed part, a deal of its own (partial_of = the position), or the position itself when closed whole. */
  deal: OrderRow;
  /** What stays open (amount, spread and margin reduced), or null after a whole close. */
  position: OrderRow | null;
}

/** What closing `part` of a position at `rate` books: its share of spread and margin, and its P/L. */
export interface PartPrice {
  margin: Decimal;
  spread: Decimal;
  /** Net P/L (after the part's spread) in the wallet currency. */
  pl: Decimal;
  spreadCharge: Decimal;
  gross: Decimal;
}

/**
 * Prices closing `part` of a position: the part takes its share of the spread and of the margin (rounded to 8
 * places; the position keeps exactly the rest, so parts always add up to the whole), and its P/L is the close's
 * formula on that amount and spread. A whole close takes everything.
 */
export function pricePart(o: OrderRow, part: Decimal, rate: Decimal, conversion: Decimal): PartPrice {
  const whole = part.eq(o.tradeAmount);
  const share = (v: string) => (whole ? dec(v) : round(dec(v).times(part).div(o.tradeAmount)));
  const spread = share(o.spread);
  const margin = share(o.marginUsed);
  const pl = round(
    profitLoss({
      side: o.type as Side,
      openRate: o.openRate,
      closeRate: rate,
      amount: part,
      spread,
      conversionRate: conversion,
    }),
  );
  const spreadCharge = round(spread.div(conversion));
  return { margin, spread, pl, spreadCharge, gross: pl.plus(spreadCharge) };
}

/**
 * POST /dashboard/orders/close with an amount (and the admin close with one): closes that part of an open position at
 * the server's price, under the lot settings (lot-rules.ts). The part becomes a closed deal of its own; its P/L goes
 * through the ledger and its share of spread and margin is released in one statement with the wallet locked; the
 * position keeps the rest with its take-profit, stop-loss and trailing stop. The whole amount is an ordinary close;
 * more than the position holds is a 400.
 */
export async function closePartOfOrder(ctx: Ctx, opts: PartialCloseOptions): Promise<PartialClosed> {
  const part = dec(opts.amount);
  if (part.lte(0)) throw fieldError('amount', 'Enter the amount to close');
  const memory = tradingMemoryOf(ctx.db);
  let facts = memory.openOrder(opts.orderId);
  if (facts && opts.ownerId !== undefined && facts.order.userId !== opts.ownerId) throw new AppError('ORDER_NOT_FOUND');
  facts ??= await loadOpenOrder(ctx, opts.orderId, opts.ownerId);
  const settings = await tradingSettings(ctx.db);
  // Another server may close a part first: then priced again from the row.
  for (let attempt = 0; attempt < 5; attempt++) {
    const read = facts;
    // In the wallet's queue, with the newest facts this process knows (its own closes of parts keep them current).
    const done = await memory.walletQueue.run(read.order.balanceId, () =>
      closePart(ctx, opts, memory.openOrder(opts.orderId) ?? read, part, settings),
    );
    if (done) return done;
    facts = await loadOpenOrder(ctx, opts.orderId, opts.ownerId);
  }
  throw new AppError('CONFLICT', 'The position changed while it was closed. Please try again.');
}

/** Checks the part against the position as known, then closes it (or the whole); null when the facts are stale. */
async function closePart(
  ctx: Ctx,
  opts: PartialCloseOptions,
  facts: OpenOrderFacts,
  part: Decimal,
  settings: Awaited<ReturnType<typeof tradingSettings>>,
): Promise<PartialClosed | null> {
  const amount = dec(facts.order.tradeAmount);
  if (part.gt(amount))
    throw fieldError('amount', `The position holds ${amount.toString()}: close at most that amount.`);
  if (part.eq(amount)) {
    const deal = await closeNow(ctx, { orderId: opts.orderId, reason: opts.reason, ...owner(opts) }, facts);
    return deal ? { deal, position: null } : null;
  }
  const instrument = ctx.market.instruments.byIdOf(facts.order.instrumentId);
  if (!instrument) throw new AppError('INSTRUMENT_NOT_FOUND');
  if (opts.reason === 'manual' && !ctx.market.isOpen(instrument.category)) throw new AppError('MARKET_CLOSED');
  checkPartSize(sizeRuleOf(settings, instrument), amount, part);
  return cut(ctx, opts, facts, part, instrument.digits);
}

const owner = (opts: PartialCloseOptions) => ({ ownerId: opts.ownerId, actorId: opts.actorId });

/** The statement of one partial close, or null when the position's figures changed since they were read. */
async function cut(
  ctx: Ctx,
  opts: PartialCloseOptions,
  facts: OpenOrderFacts,
  part: Decimal,
  digits: number,
): Promise<PartialClosed | null> {
  const o = facts.order;
  const instrument = ctx.market.instruments.byIdOf(o.instrumentId);
  if (!instrument) throw new AppError('INSTRUMENT_NOT_FOUND');
  const rate = closePrice(o.type as Side, quoteOf(ctx, instrument));
  const conversion = conversionOf(ctx, o.quoteSymbol, facts.walletCurrency);
  const price = pricePart(o, part, rate, conversion);
  const rateText = rate.toFixed(digits);
  const byBroker = opts.reason === 'admin';
  const plan = await planOfUser(ctx.db, o.userId);
  const commission = closeCommission(ctx, plan, instrument, part, rate, conversion, facts.walletCurrency);
  const commissionKey = commissionKeyOf(plan, instrument.category);
  const rows = await statementsOf(ctx.db).rows<ClosePartRow>(CLOSE_PART, [
    o.id,
    opts.ownerId ?? null,
    opts.actorId ?? null,
    str(part),
    o.tradeAmount,
    o.spread,
    o.marginUsed,
    str(price.margin),
    str(price.spread),
    str(price.gross),
    str(price.spreadCharge),
    str(rate),
    str(price.pl),
    opts.reason,
    `${o.type} ${o.instrument} ${part.toString()} of #${o.id} closed at ${rateText}`,
    byBroker ? 'Part of your position closed by the broker' : null,
    byBroker
      ? `${part.toString()} of your ${o.type} ${o.baseSymbol}/${o.quoteSymbol} position #${o.id} was closed at ${rateText} with a result of ${price.pl.toFixed(2)} ${facts.walletCurrency}.`
      : null,
    false,
    ...Array(14).fill(null),
    str(commission),
    null,
    commissionKey,
  ]);
  const memory = tradingMemoryOf(ctx.db);
  const meta = rows[0];
  if (!meta?.found) {
    memory.forgetOpenOrder(o.id);
    throw new AppError('ORDER_CLOSED');
  }
  if (!meta.facts_hold || !meta.done) {
    // The plan's commission changed since it was remembered: read again, then priced again.
    if (meta.commission_key !== commissionKey) forgetTrader(ctx.db, o.userId);
    return null;
  }
  const dealRow = rows.find((r) => r.role === 'deal');
  if (!dealRow || dealRow.id === null) throw new Error('partial close: the statement returned no deal');
  const deal = orderOfColumns(dealRow as OrderColumns);
  const position = afterCut(ctx, facts, meta, 'partial');
  ordersClosed.inc({ reason: opts.reason });
  partnerDealClosed(ctx.db, deal.id);
  emitNotice(ctx, deal.userId, meta);
  return { deal, position };
}

/**
 * What stays open after a cut, told to the memory, the risk engine (and through it the other servers) and the
 * client; the wallet balance is the statement's.
 */
export function afterCut(ctx: Ctx, facts: OpenOrderFacts, meta: ClosePartRow, reason: 'partial'): OrderRow {
  const position: OrderRow = {
    ...facts.order,
    tradeAmount: meta.rest_amount as string,
    marginUsed: meta.rest_margin as string,
    spread: meta.rest_spread as string,
  };
  tradingMemoryOf(ctx.db).rememberOpenOrder({ order: position, walletCurrency: facts.walletCurrency });
  ctx.risk.resized(position, { id: position.balanceId, balance: meta.wallet_balance as string });
  ctx.realtime.toUser(position.userId, 'ordersChanged', {
    balanceId: position.balanceId,
    orderId: position.id,
    reason,
  });
  return position;
}

/** The notification the statement wrote (a broker's partial close), pushed live. */
export function emitNotice(ctx: Ctx, userId: number, meta: ClosePartRow): void {
  if (meta.notice_id === null || meta.notice_created_at === null) return;
  emitNotification(
    ctx,
    userId,
    notificationDto({
      id: meta.notice_id,
      userId,
      title: meta.notice_title as string,
      description: meta.notice_description,
      url: meta.notice_url,
      readAt: meta.notice_read_at,
      createdAt: meta.notice_created_at,
    }),
  );
}
