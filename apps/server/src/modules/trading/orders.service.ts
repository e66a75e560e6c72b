import { and, count, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import {
  Decimal,
  closePrice,
  dec,
  newOrderBounds,
  openOrderBounds,
  openPrice,
  profitLoss,
  requiredMargin,
  spreadCost,
  withinBounds,
  type CloseReason,
  type OrderCreateRequest,
  type OrderDto,
  type OrdersQuery,
  type OrdersResponse,
  type OrderUpdateRequest,
  type Side,
} from '@platform/domain';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { orders } from '../../db/schema.ts';
import type { OrderRow } from '../../engine/hooks.ts';
import { AppError } from '../../lib/errors.ts';
import { rateUnavailable } from './market-info.service.ts';
import { offsetOf, pageMeta } from '../../lib/paging.ts';
import type { InstrumentRow } from '../../market/instruments.ts';
import { emitNotification, notificationDto } from '../notifications/service.ts';
import { statementsOf } from '../../db/statements.ts';
import {
  CLOSE_ORDER,
  LOAD_ORDER,
  PLACE_ORDER,
  orderOfColumns,
  type OrderColumns,
  type TraderRow,
} from './order-statements.ts';
import {
  kycRequiredForTrade,
  leverageFor,
  loadTrader,
  planLeverageOf,
  spreadSettingOf,
  stopoutFor,
  tradingSettings,
  traderOfRow,
  type Trader,
} from './trader.ts';
import { tradingMemoryOf } from './trading-memory.ts';
import { ordersClosed, ordersPlaced } from '../../lib/metrics.ts';

type Ctx = Pick<AppContext, 'db' | 'market' | 'risk' | 'realtime'>;

/** The KYC-for-trade switch governs real money: demo wallets trade without verification. */
const needsKyc = (kycRequired: boolean, trader: Trader): boolean =>
  kycRequired && trader.wallet.mode !== 'demo' && !trader.kycApproved;

/** A broker's cap on open positions per wallet, so one account cannot flood the engine. */
export const MAX_OPEN_POSITIONS = 200;
const DP = 8;
const round = (d: Decimal, mode: Decimal.Rounding = Decimal.ROUND_HALF_EVEN) => d.toDecimalPlaces(DP, mode);
const str = (d: Decimal) => d.toFixed(DP);

export function orderDto(o: OrderRow): OrderDto {
  return {
    id: o.id,
    balance_id: o.balanceId,
    created_at: o.createdAt.toISOString(),
    type: o.type as Side,
    instrument: o.instrument,
    base_symbol: o.baseSymbol,
    quote_symbol: o.quoteSymbol,
    kind: o.kind as OrderDto['kind'],
    trade_amount: o.tradeAmount,
    open_rate: o.openRate,
    close_rate: o.closeRate,
    close_time: o.closeTime?.toISOString() ?? null,
    profit: o.takeProfit,
    loss: o.stopLoss,
    spread: o.spread,
    exchange_rate: o.exchangeRate,
    margin_used: o.marginUsed,
    leverage: o.leverage,
    pro_loss: o.proLoss,
    close_reason: (o.closeReason as CloseReason | null) ?? null,
    trailing_distance: o.trailingDistance,
    trailing_step: o.trailingStep,
    partial_of: o.partialOf,
    pending_order_id: o.pendingOrderId,
  };
}

/** The instrument's current bid and ask as exact decimal strings at its precision, or a 503 without a price. */
function quoteOf(ctx: Ctx, instrument: InstrumentRow): { bid: string; ask: string } {
  const q = ctx.market.book.get(instrument.name);
  if (!q) throw new AppError('NO_PRICE');
  return { bid: q.bid.toFixed(instrument.digits), ask: q.ask.toFixed(instrument.digits) };
}

function conversionOf(ctx: Ctx, quote: string, walletCurrency: string): Decimal {
  const rate = ctx.market.conversionRate(quote, walletCurrency);
  if (!rate || !(rate > 0)) throw rateUnavailable(quote, walletCurrency);
  return dec(rate).toDecimalPlaces(DP);
}

function tradableInstrument(ctx: Ctx, name: string): InstrumentRow {
  const instrument = ctx.market.instruments.byNameOf(name);
  if (!instrument) throw new AppError('INSTRUMENT_NOT_FOUND');
  if (!instrument.tradable) throw new AppError('NOT_TRADABLE');
  if (!ctx.market.isOpen(instrument.category)) throw new AppError('MARKET_CLOSED');
  return instrument;
}

const fmt = (d: Decimal | null) => (d === null ? '' : d.toString());
function checkLevels(
  side: Side,
  bounds: ReturnType<typeof newOrderBounds>,
  profit: string | null | undefined,
  loss: string | null | undefined,
) {
  if (profit != null && !withinBounds(profit, bounds.takeProfit)) {
    const msg =
      bounds.takeProfit.max === null
        ? `Take profit must be at least ${fmt(bounds.takeProfit.min)}.`
        : `Take profit must be between ${fmt(bounds.takeProfit.min)} and ${fmt(bounds.takeProfit.max)}.`;
    throw new AppError('INVALID_TAKE_PROFIT', msg, { profit: msg });
  }
  if (loss != null && !withinBounds(loss, bounds.stopLoss)) {
    const msg =
      bounds.stopLoss.max === null
        ? `Stop loss must be at least ${fmt(bounds.stopLoss.min)}.`
        : `Stop loss must be between ${fmt(bounds.stopLoss.min)} and ${fmt(bounds.stopLoss.max)}.`;
    throw new AppError('INVALID_STOP_LOSS', msg, { loss: msg });
  }
  void side;
}

type PlacedColumns = TraderRow & { wallet_balance: string; wallet_margin: string; plan_leverage: number | null } & (
    | OrderColumns
    | { [K in keyof OrderColumns]: null }
  );

/**
 * POST /dashboard/orders: opens a position on the caller's active wallet at the server's price (buy at ask,
 * sell at bid). One statement locks the wallet, re-checks the trader's wallet, plan and KYC state, checks the margin
 * against the balance and the free margin (balance − margin + live P/L), writes the order and puts the margin on
 * hold; nothing is written if a check fails.
 */
export async function placeOrder(
  ctx: Ctx,
  userId: number,
  input: z.output<typeof OrderCreateRequest>,
): Promise<OrderRow> {
  const amount = dec(input.amount);
  if (amount.lte(0)) throw new AppError('AMOUNT_NOT_POSITIVE');
  const instrument = tradableInstrument(ctx, input.instrument);
  const settings = await tradingSettings(ctx.db);
  const kycRequired = kycRequiredForTrade(settings);
  const memory = tradingMemoryOf(ctx.db);
  let trader = memory.trader(userId);
  // A remembered refusal is confirmed against the database before the client is told.
  if (!trader || needsKyc(kycRequired, trader)) trader = await loadTrader(ctx.db, userId);
  if (needsKyc(kycRequired, trader)) throw new AppError('KYC_REQUIRED_TRADE');

  // A changed wallet or plan is priced again with the current figures; twice in a row means it keeps changing.
  for (let attempt = 0; attempt < 3; attempt++) {
    const priced: Trader = trader;
    const outcome = await memory.walletQueue.run(priced.wallet.id, () =>
      placeFor(ctx, priced, instrument, input, amount, settings, kycRequired),
    );
    if ('order' in outcome) {
      ordersPlaced.inc({ category: instrument.category });
      return outcome.order;
    }
    trader = outcome.current;
  }
  throw new AppError('CONFLICT', 'Your account changed while the order was placed. Please try again.');
}

async function placeFor(
  ctx: Ctx,
  trader: Trader,
  instrument: InstrumentRow,
  input: z.output<typeof OrderCreateRequest>,
  amount: Decimal,
  settings: Awaited<ReturnType<typeof tradingSettings>>,
  kycRequired: boolean,
): Promise<{ order: OrderRow } | { current: Trader }> {
  const memory = tradingMemoryOf(ctx.db);
  const side = input.type;
  const wallet = trader.wallet;
  const quote = quoteOf(ctx, instrument);
  checkLevels(side, newOrderBounds(side, quote), input.profit, input.loss);
  const conversion = conversionOf(ctx, instrument.quote, wallet.currency);
  const leverage = leverageFor(trader.plan, instrument.category, instrument.leverage);
  const rate = openPrice(side, quote);
  // Margin is rounded up so the hold always covers the exact figure.
  const margin = round(requiredMargin({ price: rate, amount, leverage, conversionRate: conversion }), Decimal.ROUND_UP);
  const spread = round(
    spreadCost({
      ask: quote.ask,
      bid: quote.bid,
      spreadSetting: spreadSettingOf(settings, instrument.category),
      amount,
    }),
  );
  if (ctx.risk.openPositions(wallet.id) >= MAX_OPEN_POSITIONS) throw new AppError('TOO_MANY_POSITIONS');
  const livePl = round(dec(ctx.risk.unrealizedPl(wallet.id)));
  const [row] = await statementsOf(ctx.db).rows<PlacedColumns>(PLACE_ORDER, [
    trader.userId,
    wallet.id,
    str(margin),
    str(livePl),
    instrument.category,
    planLeverageOf(trader.plan, instrument.category),
    kycRequired,
    instrument.id,
    instrument.name,
    instrument.base,
    instrument.quote,
    side,
    str(amount),
    str(rate),
    quote.bid,
    quote.ask,
    input.profit ?? null,
    input.loss ?? null,
    str(spread),
    str(conversion),
    leverage,
  ]);
  if (!row) {
    memory.forgetTrader(trader.userId);
    throw new AppError('NO_ACTIVE_WALLET');
  }
  const current = traderOfRow(trader.userId, row);
  memory.rememberTrader(current);
  if (row.id === null) {
    if (needsKyc(kycRequired, current)) throw new AppError('KYC_REQUIRED_TRADE');
    if (
      current.wallet.id !== wallet.id ||
      planLeverageOf(current.plan, instrument.category) !== planLeverageOf(trader.plan, instrument.category)
    ) {
      return { current };
    }
    if (margin.gt(row.wallet_balance)) throw new AppError('INSUFFICIENT_BALANCE');
    throw new AppError('INSUFFICIENT_FREE_MARGIN');
  }
  const order = orderOfColumns(row);
  memory.rememberOpenOrder({ order, walletCurrency: wallet.currency });
  ctx.risk.opened(order, {
    id: order.balanceId,
    balance: row.wallet_balance,
    currency: wallet.currency,
    stopoutPercent: stopoutFor(current.plan),
  });
  ctx.realtime.toUser(trader.userId, 'ordersChanged', {
    balanceId: order.balanceId,
    orderId: order.id,
    reason: 'opened',
  });
  return { order };
}

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

type ClosedColumns = OrderColumns & {
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
  const statements = statementsOf(ctx.db);
  const memory = tradingMemoryOf(ctx.db);
  let facts = memory.openOrder(opts.orderId);
  if (!facts) {
    const [found] = await statements.rows<OrderColumns & { wallet_currency: string }>(LOAD_ORDER, [
      opts.orderId,
      opts.ownerId ?? null,
    ]);
    if (!found) throw new AppError('ORDER_NOT_FOUND');
    if (found.close_time) throw new AppError('ORDER_CLOSED');
    facts = { order: orderOfColumns(found), walletCurrency: found.wallet_currency };
  } else if (opts.ownerId !== undefined && facts.order.userId !== opts.ownerId) {
    throw new AppError('ORDER_NOT_FOUND');
  }
  const o = facts.order;
  const currency = facts.walletCurrency;
  const instrument = ctx.market.instruments.byIdOf(o.instrumentId);
  if (!instrument) throw new AppError('INSTRUMENT_NOT_FOUND');
  if (opts.reason === 'manual' && !ctx.market.isOpen(instrument.category)) throw new AppError('MARKET_CLOSED');

  return memory.walletQueue.run(o.balanceId, async () => {
    const side = o.type as Side;
    const rate =
      opts.price !== undefined
        ? dec(opts.price.toFixed(instrument.digits))
        : closePrice(side, quoteOf(ctx, instrument));
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
    const gross = pl.plus(spreadCharge);
    const automatic = opts.reason === 'take_profit' || opts.reason === 'stop_loss' || opts.reason === 'stop_out';
    const noticeTitle = automatic || opts.reason === 'admin' ? REASON_TITLES[opts.reason] : null;
    const noticeText = `Your ${o.type} ${o.baseSymbol}/${o.quoteSymbol} position #${o.id} was closed at ${rate.toString()} with a result of ${pl.toFixed(2)} ${currency}.`;
    const [row] = await statements.rows<ClosedColumns>(CLOSE_ORDER, [
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
    ]);
    memory.forgetOpenOrder(o.id);
    // Found open a moment ago: closed since by someone else (its owner, staff, the risk engine or another server).
    if (!row) throw new AppError('ORDER_CLOSED');
    const order = orderOfColumns(row);
    ordersClosed.inc({ reason: opts.reason });
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
  });
}

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

/** GET /dashboard/orders: the active wallet's positions; every open one for status=open, else paged, newest first. */
export async function listOrders(db: Db, userId: number, q: z.output<typeof OrdersQuery>): Promise<OrdersResponse> {
  const trader = await loadTrader(db, userId).catch((err: unknown) => {
    // Staff without a wallet simply have no positions.
    if (err instanceof AppError && err.code === 'NO_ACTIVE_WALLET') return null;
    throw err;
  });
  if (!trader) return { data: [], meta: pageMeta(q, 0) };
  const where = and(
    eq(orders.balanceId, trader.wallet.id),
    // Trades staff voided are gone from the client's lists; their money was reversed.
    isNull(orders.voidedAt),
    q.status === 'open' ? isNull(orders.closeTime) : q.status === 'closed' ? isNotNull(orders.closeTime) : undefined,
  );
  if (q.status === 'open') {
    const rows = await db.select().from(orders).where(where).orderBy(desc(orders.id));
    return { data: rows.map(orderDto), meta: { total: rows.length, per_page: rows.length, page: 1 } };
  }
  const [rows, [{ n }]] = await Promise.all([
    db.select().from(orders).where(where).orderBy(desc(orders.id)).limit(q.limit).offset(offsetOf(q)),
    db.select({ n: count() }).from(orders).where(where),
  ]);
  return { data: rows.map(orderDto), meta: pageMeta(q, n) };
}
