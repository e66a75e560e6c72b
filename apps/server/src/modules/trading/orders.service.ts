import { and, count, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  Decimal, closePrice, dec, newOrderBounds, openOrderBounds, openPrice, profitLoss, requiredMargin, spreadCost, withinBounds,
  type CloseReason, type OrderCreateRequest, type OrderDto, type OrdersQuery, type OrdersResponse, type OrderUpdateRequest, type Side,
} from '@platform/domain';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { balances, ledgerEntries, orders } from '../../db/schema.ts';
import type { OrderRow } from '../../engine/hooks.ts';
import { AppError } from '../../lib/errors.ts';
import { offsetOf, pageMeta } from '../../lib/paging.ts';
import type { InstrumentRow } from '../../market/instruments.ts';
import { insertNotification, emitNotification } from '../notifications/service.ts';
import { kycRequiredForTrade, leverageFor, loadTrader, lockTrader, spreadSettingOf, stopoutFor, tradingSettings } from './trader.ts';

type Ctx = Pick<AppContext, 'db' | 'market' | 'risk' | 'realtime'>;

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
  if (!rate || !(rate > 0)) throw new AppError('RATE_UNAVAILABLE');
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
function checkLevels(side: Side, bounds: ReturnType<typeof newOrderBounds>, profit: string | null | undefined, loss: string | null | undefined) {
  if (profit != null && !withinBounds(profit, bounds.takeProfit)) {
    const msg = bounds.takeProfit.max === null
      ? `Take profit must be at least ${fmt(bounds.takeProfit.min)}.`
      : `Take profit must be between ${fmt(bounds.takeProfit.min)} and ${fmt(bounds.takeProfit.max)}.`;
    throw new AppError('INVALID_TAKE_PROFIT', msg, { profit: msg });
  }
  if (loss != null && !withinBounds(loss, bounds.stopLoss)) {
    const msg = bounds.stopLoss.max === null
      ? `Stop loss must be at least ${fmt(bounds.stopLoss.min)}.`
      : `Stop loss must be between ${fmt(bounds.stopLoss.min)} and ${fmt(bounds.stopLoss.max)}.`;
    throw new AppError('INVALID_STOP_LOSS', msg, { loss: msg });
  }
  void side;
}

/**
 * POST /dashboard/orders: opens a position on the caller's active wallet at the server's price (buy at ask,
 * sell at bid). In one transaction the wallet row is locked, the margin checked against the balance and the free
 * margin (balance − margin + live P/L), the order written and the margin put on hold.
 */
export async function placeOrder(ctx: Ctx, userId: number, input: z.output<typeof OrderCreateRequest>): Promise<OrderRow> {
  const amount = dec(input.amount);
  if (amount.lte(0)) throw new AppError('AMOUNT_NOT_POSITIVE');
  const instrument = tradableInstrument(ctx, input.instrument);
  const settings = await tradingSettings(ctx.db);
  const side = input.type;

  const { order, trader } = await ctx.db.transaction(async (tx) => {
    const trader = await lockTrader(tx, userId);
    const wallet = trader.wallet;
    if (kycRequiredForTrade(settings) && !trader.kycApproved) throw new AppError('KYC_REQUIRED_TRADE');
    const quote = quoteOf(ctx, instrument);
    checkLevels(side, newOrderBounds(side, quote), input.profit, input.loss);
    const conversion = conversionOf(ctx, instrument.quote, wallet.currency);
    const leverage = leverageFor(trader.plan, instrument.category, instrument.leverage);
    const rate = openPrice(side, quote);
    // Margin is rounded up so the hold always covers the exact figure.
    const margin = round(requiredMargin({ price: rate, amount, leverage, conversionRate: conversion }), Decimal.ROUND_UP);
    const spread = round(spreadCost({ ask: quote.ask, bid: quote.bid, spreadSetting: spreadSettingOf(settings, instrument.category), amount }));
    if (ctx.risk.openPositions(wallet.id) >= MAX_OPEN_POSITIONS) throw new AppError('TOO_MANY_POSITIONS');
    const free = dec(wallet.balance).minus(wallet.margin).plus(round(dec(ctx.risk.unrealizedPl(wallet.id))));
    if (margin.gt(wallet.balance)) throw new AppError('INSUFFICIENT_BALANCE');
    if (margin.gt(free)) throw new AppError('INSUFFICIENT_FREE_MARGIN');
    // The hold rides along with the insert as a data-modifying CTE: one round trip fewer while the wallet is locked.
    // The hot statements of placing and closing are named (prepared): PostgreSQL parses and plans each once per
    // connection instead of on every order, which halved the database's CPU per order. A name stands for exactly one
    // SQL text, so each variant has its own. Behind a transaction-pooling PgBouncer this needs its prepared
    // statement support (1.21+, max_prepared_statements).
    const hold = tx
      .$with('hold')
      .as(tx.update(balances).set({ margin: sql`${balances.margin} + ${str(margin)}` }).where(eq(balances.id, wallet.id)));
    const [row] = await tx
      .with(hold)
      .insert(orders)
      .values({
        userId,
        balanceId: wallet.id,
        instrumentId: instrument.id,
        instrument: instrument.name,
        baseSymbol: instrument.base,
        quoteSymbol: instrument.quote,
        kind: instrument.category,
        type: side,
        tradeAmount: str(amount),
        openRate: str(rate),
        openBid: quote.bid,
        openAsk: quote.ask,
        takeProfit: input.profit ?? null,
        stopLoss: input.loss ?? null,
        spread: str(spread),
        exchangeRate: str(conversion),
        marginUsed: str(margin),
        leverage,
      })
      .returning()
      .prepare('place_order')
      .execute();
    return { order: row, trader };
  });
  ctx.risk.opened(order, { id: order.balanceId, balance: trader.wallet.balance, currency: trader.wallet.currency, stopoutPercent: stopoutFor(trader.plan) });
  ctx.realtime.toUser(userId, 'ordersChanged', { balanceId: order.balanceId, orderId: order.id, reason: 'opened' });
  return order;
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

/**
 * Closes an open position at the server's price (buy at bid, sell at ask). In one transaction with the wallet
 * locked: the P/L and the spread cost are booked as ledger entries, negative balance protection credits whatever
 * would take the balance below zero, the margin hold is released and the order is stamped with its reason.
 */
export async function closeOrder(ctx: Ctx, opts: CloseOptions): Promise<OrderRow> {
  const { order, balance, notice } = await ctx.db.transaction(async (tx) => {
    // The wallet and the order are locked by one statement (PostgreSQL takes FOR UPDATE OF locks in the order
    // listed: wallet, then order). Nothing takes the two the other way round (placement locks only the wallet, level
    // changes only the order), so closes never deadlock. A client's call finds, and locks, only its own orders.
    const [row] = await tx
      .select({ wallet: { id: balances.id, balance: balances.balance, currency: balances.currency }, order: orders })
      .from(balances)
      .innerJoin(orders, eq(orders.balanceId, balances.id))
      .where(and(eq(orders.id, opts.orderId), opts.ownerId !== undefined ? eq(orders.userId, opts.ownerId) : undefined))
      .for('update', { of: [balances, orders] })
      .prepare(opts.ownerId !== undefined ? 'close_lock_own' : 'close_lock')
      .execute();
    if (!row) throw new AppError('ORDER_NOT_FOUND');
    const { wallet, order: o } = row;
    if (o.closeTime) throw new AppError('ORDER_CLOSED');
    const instrument = ctx.market.instruments.byIdOf(o.instrumentId);
    if (!instrument) throw new AppError('INSTRUMENT_NOT_FOUND');
    if (opts.reason === 'manual' && !ctx.market.isOpen(instrument.category)) throw new AppError('MARKET_CLOSED');
    const side = o.type as Side;
    const rate = opts.price !== undefined ? dec(opts.price.toFixed(instrument.digits)) : closePrice(side, quoteOf(ctx, instrument));
    const conversion = conversionOf(ctx, o.quoteSymbol, wallet.currency);
    const pl = round(profitLoss({ side, openRate: o.openRate, closeRate: rate, amount: o.tradeAmount, spread: o.spread, conversionRate: conversion }));
    const spreadCharge = round(dec(o.spread).div(conversion));
    const gross = pl.plus(spreadCharge);

    let running = dec(wallet.balance);
    const entries: Array<typeof ledgerEntries.$inferInsert> = [];
    const book = (kind: string, amount: Decimal, note: string) => {
      if (amount.isZero()) return;
      running = running.plus(amount);
      entries.push({ balanceId: wallet.id, kind, amount: str(amount), balanceAfter: str(running), refType: 'order', refId: o.id, actorId: opts.actorId ?? null, note });
    };
    book('trade_pl', gross, `${o.type} ${o.instrument} closed at ${rate.toString()}`);
    book('spread', spreadCharge.neg(), `Spread on ${o.instrument}`);
    if (running.lt(0)) book('negative_balance_protection', running.neg(), 'Negative balance protection');
    // Ledger entries, the wallet and the order are written by one statement (data-modifying CTEs): the locks are
    // held for one round trip instead of three.
    const settle = tx
      .$with('settle')
      .as(tx.update(balances).set({ balance: str(running), margin: sql`${balances.margin} - ${o.marginUsed}` }).where(eq(balances.id, wallet.id)));
    const ledger = tx.$with('ledger').as(tx.insert(ledgerEntries).values(entries));
    const [closed] = await tx
      .with(...(entries.length ? [settle, ledger] : [settle]))
      .update(orders)
      .set({ closeRate: str(rate), closeTime: new Date(), proLoss: str(pl), closeReason: opts.reason, closedBy: opts.actorId ?? null })
      .where(eq(orders.id, o.id))
      .returning()
      .prepare(`close_settle_${entries.length}`)
      .execute();
    const automatic = opts.reason === 'take_profit' || opts.reason === 'stop_loss' || opts.reason === 'stop_out';
    const notice = automatic || opts.reason === 'admin'
      ? await insertNotification(tx, o.userId, {
          title: REASON_TITLES[opts.reason],
          description: `Your ${o.type} ${o.baseSymbol}/${o.quoteSymbol} position #${o.id} was closed at ${rate.toString()} with a result of ${pl.toFixed(2)} ${wallet.currency}.`,
          url: '/dashboard',
        })
      : null;
    return { order: closed, balance: str(running), notice };
  });
  ctx.risk.closed(order, { id: order.balanceId, balance });
  if (notice) emitNotification(ctx, order.userId, notice);
  ctx.realtime.toUser(order.userId, 'ordersChanged', { balanceId: order.balanceId, orderId: order.id, reason: opts.reason });
  return order;
}

/** PUT /dashboard/orders/{id}: new take-profit and/or stop-loss on the caller's open order, within the §5 bounds. */
export async function updateOrderLevels(ctx: Ctx, userId: number, orderId: number, input: z.output<typeof OrderUpdateRequest>): Promise<OrderRow> {
  const order = await ctx.db.transaction(async (tx) => {
    const [o] = await tx.select().from(orders).where(and(eq(orders.id, orderId), eq(orders.userId, userId))).for('update');
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
export async function listOrders(db: DbOrTx, userId: number, q: z.output<typeof OrdersQuery>): Promise<OrdersResponse> {
  const trader = await loadTrader(db, userId).catch((err: unknown) => {
    // Staff without a wallet simply have no positions.
    if (err instanceof AppError && err.code === 'NO_ACTIVE_WALLET') return null;
    throw err;
  });
  if (!trader) return { data: [], meta: pageMeta(q, 0) };
  const where = and(
    eq(orders.balanceId, trader.wallet.id),
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
