import {
  Decimal,
  dec,
  effectiveLeverage,
  ERRORS,
  newOrderBounds,
  openPrice,
  requiredMargin,
  spreadCost,
} from '@platform/domain';
import { statementsOf } from '../../db/statements.ts';
import type { OrderRow } from '../../engine/hooks.ts';
import { AppError } from '../../lib/errors.ts';
import { ordersPlaced } from '../../lib/metrics.ts';
import type { InstrumentRow } from '../../market/instruments.ts';
import { PLACE_ORDER, orderOfColumns, type OrderColumns, type TraderRow } from './order-statements.ts';
import {
  MAX_OPEN_POSITIONS,
  checkLevels,
  conversionOf,
  needsKyc,
  quoteOf,
  round,
  str,
  tradableInstrument,
  type Ctx,
} from './order-pricing.ts';
import { openCommission } from './commission.ts';
import { netAgainst, nettedPosition } from './netting.ts';
import type { MarketOrderInput, PendingFill, Placed } from './place-types.ts';
import { reserveWithinLimits } from '../risk/limits.ts';
import {
  accountTypeOf,
  commissionKeyOf,
  forgetTrader,
  kycRequiredForTrade,
  leverageFor,
  loadTrader,
  planLeverageOf,
  rememberTrader,
  rememberedTrader,
  spreadSettingOf,
  marginCallOf,
  stopoutFor,
  tradingSettings,
  traderOfRow,
  type Trader,
} from './trader.ts';
import { tradingMemoryOf } from './trading-memory.ts';

export type { MarketOrderInput, PendingFill, Placed } from './place-types.ts';

type PlacedColumns = TraderRow & {
  wallet_balance: string;
  wallet_margin: string;
  plan_leverage: number | null;
  pending_open: boolean;
  oco_cancelled_id: number | null;
  netting_conflict: boolean | null;
  commission_key: string;
} & (OrderColumns | { [K in keyof OrderColumns]: null });

/**
 * POST /dashboard/orders: opens a position on the caller's active wallet at the server's price (buy at ask,
 * sell at bid). One statement locks the wallet, re-checks the trader's wallet, plan and KYC state, checks the margin
 * against the balance and the free margin (balance − margin + live P/L), writes the order and puts the margin on
 * hold; nothing is written if a check fails. A pending order's fill goes the same way on the pending order's wallet
 * at the triggering tick's quote, and marks the pending order filled in the same statement (PENDING_NOT_OPEN when
 * it no longer waits).
 */
export async function placeOrder(ctx: Ctx, userId: number, input: MarketOrderInput): Promise<OrderRow> {
  return (await tradingMemoryOf(ctx.db).orderPath.time(() => place(ctx, userId, input))).order;
}

/** Opens the position of a triggered pending order; also says which OCO partner the fill cancelled. */
export function fillPendingOrder(
  ctx: Ctx,
  userId: number,
  input: MarketOrderInput,
  fill: PendingFill,
): Promise<Placed> {
  return place(ctx, userId, input, fill);
}

async function place(ctx: Ctx, userId: number, input: MarketOrderInput, fill?: PendingFill): Promise<Placed> {
  const amount = dec(input.amount);
  if (amount.lte(0)) throw new AppError('AMOUNT_NOT_POSITIVE');
  const instrument = tradableInstrument(ctx, input.instrument);
  const settings = await tradingSettings(ctx.db);
  const kycRequired = kycRequiredForTrade(settings);
  let trader = fill ? await loadTrader(ctx.db, userId, fill.walletId) : rememberedTrader(ctx.db, userId);
  // A remembered refusal is confirmed against the database before the client is told.
  if (!trader || needsKyc(kycRequired, trader)) trader = await loadTrader(ctx.db, userId, fill?.walletId ?? null);
  if (needsKyc(kycRequired, trader)) throw new AppError('KYC_REQUIRED_TRADE');

  // The dealer's limits (held in memory): refused here, before anything is written.
  const release = await reserveWithinLimits(ctx, {
    instrument,
    mode: trader.wallet.mode,
    side: input.type,
    amount: amount.toNumber(),
  });
  try {
    return await placeWithin(ctx, trader, instrument, input, amount, settings, kycRequired, fill);
  } finally {
    release();
  }
}

async function placeWithin(
  ctx: Ctx,
  first: Trader,
  instrument: InstrumentRow,
  input: MarketOrderInput,
  amount: Decimal,
  settings: Awaited<ReturnType<typeof tradingSettings>>,
  kycRequired: boolean,
  fill: PendingFill | undefined,
): Promise<Placed> {
  const memory = tradingMemoryOf(ctx.db);
  let trader = first;
  // A changed wallet or plan is priced again with the current figures; twice in a row means it keeps changing.
  for (let attempt = 0; attempt < 3; attempt++) {
    const priced: Trader = trader;
    const outcome = await memory.walletQueue.run(priced.wallet.id, async () => {
      // A netting account's order against the position it holds on the instrument reduces, closes or reverses it.
      const position = accountTypeOf(priced) === 'netting' ? await nettedPosition(ctx, priced, instrument) : null;
      return position
        ? netAgainst(ctx, priced, instrument, input, amount, position, settings, kycRequired, fill)
        : placeFor(ctx, priced, instrument, input, amount, settings, kycRequired, fill);
    });
    if ('order' in outcome) {
      ordersPlaced.inc({ category: instrument.category });
      return outcome;
    }
    trader = outcome.current;
  }
  throw new AppError('CONFLICT', 'Your account changed while the order was placed. Please try again.');
}

async function placeFor(
  ctx: Ctx,
  trader: Trader,
  instrument: InstrumentRow,
  input: MarketOrderInput,
  amount: Decimal,
  settings: Awaited<ReturnType<typeof tradingSettings>>,
  kycRequired: boolean,
  fill: PendingFill | undefined,
): Promise<Placed | { current: Trader }> {
  const memory = tradingMemoryOf(ctx.db);
  const side = input.type;
  const wallet = trader.wallet;
  const quote = fill?.quote ?? quoteOf(ctx, instrument);
  checkLevels(side, newOrderBounds(side, quote), input.profit, input.loss);
  const conversion = conversionOf(ctx, instrument.quote, wallet.currency);
  const leverage = leverageFor(trader.plan, instrument);
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
  const commission = openCommission(ctx, trader, instrument, amount, rate, conversion);
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
    fill?.pendingOrderId ?? null,
    str(commission),
    commissionKeyOf(trader.plan, instrument.category),
  ]);
  if (!row) {
    if (!fill) forgetTrader(ctx.db, trader.userId);
    throw new AppError('NO_ACTIVE_WALLET');
  }
  const current = traderOfRow(trader.userId, row);
  // A fill's wallet need not be the active one, which is what the memory keeps.
  if (!fill) rememberTrader(ctx.db, current);
  if (row.id === null) {
    if (fill && !row.pending_open) throw new AppError('PENDING_NOT_OPEN');
    // The account nets and holds a position on the instrument (a plan change, or an order elsewhere): nets next.
    if (row.netting_conflict) return { current };
    if (needsKyc(kycRequired, current)) throw new AppError('KYC_REQUIRED_TRADE');
    if (
      current.wallet.id !== wallet.id ||
      planLeverageOf(current.plan, instrument.category) !== planLeverageOf(trader.plan, instrument.category) ||
      row.commission_key !== commissionKeyOf(trader.plan, instrument.category)
    ) {
      return { current };
    }
    const short = margin.plus(commission).gt(row.wallet_balance) ? 'INSUFFICIENT_BALANCE' : 'INSUFFICIENT_FREE_MARGIN';
    throw new AppError(short, retailCapNote(trader, instrument, leverage, short));
  }
  const order = orderOfColumns(row);
  memory.rememberOpenOrder({ order, walletCurrency: wallet.currency });
  ctx.risk.opened(order, {
    id: order.balanceId,
    balance: str(dec(row.wallet_balance).minus(commission)),
    currency: wallet.currency,
    stopoutPercent: stopoutFor(current.plan),
    marginCall: marginCallOf(current.plan),
  });
  ctx.realtime.toUser(trader.userId, 'ordersChanged', {
    balanceId: order.balanceId,
    orderId: order.id,
    reason: 'opened',
  });
  return { order, ocoCancelledId: row.oco_cancelled_id ?? null };
}

/**
 * The refusal's message when a retail plan's cap set the margin: the spec's message, then the cap that applied, so
 * the trader knows why the order needs more margin than their plan's leverage suggests.
 */
function retailCapNote(
  trader: Trader,
  instrument: InstrumentRow,
  leverage: number,
  code: 'INSUFFICIENT_BALANCE' | 'INSUFFICIENT_FREE_MARGIN',
): string | undefined {
  const uncapped = effectiveLeverage(planLeverageOf(trader.plan, instrument.category), instrument, null);
  if (!trader.plan?.retail.retail || leverage >= uncapped) return undefined;
  return `${ERRORS[code].message} Retail leverage on ${instrument.name.replace('_', '/')} is limited to 1:${leverage}.`;
}
