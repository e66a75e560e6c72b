import { Decimal, dec, newOrderBounds, openPrice, requiredMargin, spreadCost, type Side } from '@platform/domain';
import { statementsOf } from '../../db/statements.ts';
import type { OrderRow } from '../../engine/hooks.ts';
import { AppError } from '../../lib/errors.ts';
import { ordersClosed } from '../../lib/metrics.ts';
import type { InstrumentRow } from '../../market/instruments.ts';
import { closeCommission, openCommission } from './commission.ts';
import { orderOfColumns, type OrderColumns } from './order-statements.ts';
import { checkLevels, conversionOf, quoteOf, round, str, type Ctx } from './order-pricing.ts';
import { afterCut, pricePart } from './partial-close.ts';
import type { MarketOrderInput, PendingFill, Placed } from './place-types.ts';
import { CLOSE_PART, OPEN_ON_INSTRUMENT, type ClosePartRow } from './position-statements.ts';
import {
  commissionKeyOf,
  leverageFor,
  loadTrader,
  planLeverageOf,
  spreadSettingOf,
  marginCallOf,
  stopoutFor,
  type tradingSettings,
  type Trader,
} from './trader.ts';
import { tradingMemoryOf, type OpenOrderFacts } from './trading-memory.ts';
import { partnerDealClosed } from '../partners/hook.ts';

/**
 * Netting accounts (the plan's account type): a wallet holds at most one position per instrument. An order the other
 * way is a deal against it at the order's price (buy at the ask, sell at the bid: the very price the position closes
 * at): smaller than the position it closes that part (a partial close), equal it closes it, larger it closes it and
 * opens the rest the other way, all in one statement (CLOSE_PART). The order's take-profit and stop-loss go to the
 * position a reversal opens; a reduced position keeps its own. An order the same way is refused (NETTING_SAME_SIDE;
 * docs/decisions.md says why). A pending order's fill nets the same way.
 */

/** The position a netting wallet holds on the instrument (the oldest, should a plan change have left several). */
export async function nettedPosition(
  ctx: Ctx,
  trader: Trader,
  instrument: InstrumentRow,
): Promise<OpenOrderFacts | null> {
  const [row] = await statementsOf(ctx.db).rows<OrderColumns & { wallet_currency: string }>(OPEN_ON_INSTRUMENT, [
    trader.wallet.id,
    instrument.id,
  ]);
  return row ? { order: orderOfColumns(row), walletCurrency: row.wallet_currency } : null;
}

/**
 * The order `input` against `position` on a netting account. Answers like placing: the order the client sees (the
 * new position of a reversal, else the closed deal) and the OCO partner a pending fill cancelled; or the trader's
 * current facts when the account, wallet, plan or position changed meanwhile, so the order path tries again.
 */
export async function netAgainst(
  ctx: Ctx,
  trader: Trader,
  instrument: InstrumentRow,
  input: MarketOrderInput,
  amount: Decimal,
  position: OpenOrderFacts,
  settings: Awaited<ReturnType<typeof tradingSettings>>,
  kycRequired: boolean,
  fill: PendingFill | undefined,
): Promise<Placed | { current: Trader }> {
  const o = position.order;
  const side: Side = input.type;
  if (o.type === side) throw new AppError('NETTING_SAME_SIDE');
  const quote = fill?.quote ?? quoteOf(ctx, instrument);
  const rate = openPrice(side, quote);
  const held = dec(o.tradeAmount);
  const closing = Decimal.min(amount, held);
  const rest = amount.gt(held) ? amount.minus(held) : null;
  const conversion = conversionOf(ctx, o.quoteSymbol, position.walletCurrency);
  const price = pricePart(o, closing, rate, conversion);
  const wallet = trader.wallet;

  let opening: { margin: Decimal; spread: Decimal; leverage: number; livePl: Decimal } | null = null;
  if (rest) {
    // The reversal opens a position: the bounds and figures of a market order of the rest.
    checkLevels(side, newOrderBounds(side, quote), input.profit, input.loss);
    const leverage = leverageFor(trader.plan, instrument);
    opening = {
      leverage,
      margin: round(
        requiredMargin({ price: rate, amount: rest, leverage, conversionRate: conversion }),
        Decimal.ROUND_UP,
      ),
      spread: round(
        spreadCost({
          ask: quote.ask,
          bid: quote.bid,
          spreadSetting: spreadSettingOf(settings, instrument.category),
          amount: rest,
        }),
      ),
      // Free margin counts the other positions' live P/L: the netted one is closed by the same statement.
      livePl: round(dec(ctx.risk.unrealizedPl(wallet.id) - (ctx.risk.positionPl(o.id) ?? 0))),
    };
  }
  const rateText = rate.toFixed(instrument.digits);
  // The closed part pays the close commission, the reversal's new position the open one (the plan's terms).
  const commission = closeCommission(ctx, trader.plan, instrument, closing, rate, conversion, wallet.currency);
  const reversalCommission = rest ? openCommission(ctx, trader, instrument, rest, rate, conversion) : null;
  const commissionKey = commissionKeyOf(trader.plan, instrument.category);
  const rows = await statementsOf(ctx.db).rows<ClosePartRow>(CLOSE_PART, [
    o.id,
    trader.userId,
    trader.userId,
    str(closing),
    o.tradeAmount,
    o.spread,
    o.marginUsed,
    str(price.margin),
    str(price.spread),
    str(price.gross),
    str(price.spreadCharge),
    str(rate),
    str(price.pl),
    'manual',
    `${o.type} ${o.instrument} ${closing.toString()} of #${o.id} closed at ${rateText} by a ${side} order`,
    null,
    null,
    true,
    fill?.pendingOrderId ?? null,
    rest ? str(rest) : null,
    opening ? str(opening.margin) : null,
    opening ? str(opening.livePl) : null,
    kycRequired,
    planLeverageOf(trader.plan, instrument.category),
    side,
    quote.bid,
    quote.ask,
    input.profit ?? null,
    input.loss ?? null,
    opening ? str(opening.spread) : null,
    str(conversion),
    opening?.leverage ?? null,
    str(commission),
    reversalCommission ? str(reversalCommission) : null,
    commissionKey,
  ]);
  const meta = rows[0];
  // The position closed or changed meanwhile: the order path reads it (or its absence) again.
  if (!meta?.found || !meta.facts_hold) return { current: trader };
  if (!meta.done)
    return refusal(
      ctx,
      trader,
      meta,
      { fill, kycRequired, category: instrument.category },
      opening?.margin ?? null,
      price.pl,
    );

  const deal = orderOfColumns(rows.find((r) => r.role === 'deal') as OrderColumns);
  const openedRow = rows.find((r) => r.role === 'opened');
  const opened = openedRow ? orderOfColumns(openedRow as OrderColumns) : null;
  const balance = meta.wallet_balance as string;
  const memory = tradingMemoryOf(ctx.db);
  ordersClosed.inc({ reason: 'manual' });
  partnerDealClosed(ctx.db, deal.id);
  if (meta.rest_amount === null) {
    memory.forgetOpenOrder(o.id);
    ctx.risk.closed(deal, { id: wallet.id, balance });
    ctx.realtime.toUser(trader.userId, 'ordersChanged', { balanceId: wallet.id, orderId: o.id, reason: 'manual' });
  } else afterCut(ctx, position, meta, 'partial');
  if (opened) openedPosition(ctx, trader, opened, balance);
  return { order: opened ?? deal, ocoCancelledId: meta.oco_cancelled_id ?? null };
}

function openedPosition(ctx: Ctx, trader: Trader, order: OrderRow, balance: string): void {
  tradingMemoryOf(ctx.db).rememberOpenOrder({ order, walletCurrency: trader.wallet.currency });
  ctx.risk.opened(order, {
    id: order.balanceId,
    balance,
    currency: trader.wallet.currency,
    stopoutPercent: stopoutFor(trader.plan),
    marginCall: marginCallOf(trader.plan),
  });
  ctx.realtime.toUser(trader.userId, 'ordersChanged', {
    balanceId: order.balanceId,
    orderId: order.id,
    reason: 'opened',
  });
}

/** Why CLOSE_PART wrote nothing on the place path: an error to show, or the trader's facts to try again with. */
async function refusal(
  ctx: Ctx,
  trader: Trader,
  meta: ClosePartRow,
  order: { fill: PendingFill | undefined; kycRequired: boolean; category: InstrumentRow['category'] },
  margin: Decimal | null,
  netPl: Decimal,
): Promise<{ current: Trader }> {
  const { fill } = order;
  if (fill && !meta.pending_open) throw new AppError('PENDING_NOT_OPEN');
  const wallet = trader.wallet;
  const changed =
    meta.account_type !== 'netting' ||
    meta.commission_key !== commissionKeyOf(trader.plan, order.category) ||
    (!fill && meta.active_balance_id !== wallet.id) ||
    (margin !== null && meta.plan_leverage !== planLeverageOf(trader.plan, order.category));
  if (changed) return { current: await loadTrader(ctx.db, trader.userId, fill?.walletId ?? null) };
  if (order.kycRequired && wallet.mode !== 'demo' && !meta.kyc) throw new AppError('KYC_REQUIRED_TRADE');
  if (margin !== null) {
    const after = Decimal.max(dec(meta.balance_before ?? '0').plus(netPl), 0);
    if (margin.gt(after)) throw new AppError('INSUFFICIENT_BALANCE');
    throw new AppError('INSUFFICIENT_FREE_MARGIN');
  }
  throw new AppError('CONFLICT', 'Your position changed while the order was placed. Please try again.');
}
