import { Decimal, dec, newOrderBounds, openPrice, requiredMargin, spreadCost } from '@platform/domain';
import { statementsOf } from '../../../db/statements.ts';
import type { OrderRow, WalletRef } from '../../../engine/hooks.ts';
import { ordersPlaced } from '../../../lib/metrics.ts';
import type { InstrumentRow } from '../../../market/instruments.ts';
import { emitNotification, notificationDto } from '../../notifications/service.ts';
import { orderOfColumns, type OrderColumns } from '../order-statements.ts';
import { openCommission } from '../commission.ts';
import {
  MAX_OPEN_POSITIONS,
  checkLevels,
  conversionOf,
  needsKyc,
  round,
  str,
  tradableInstrument,
} from '../order-pricing.ts';
import {
  accountTypeOf,
  commissionKeyOf,
  kycRequiredForTrade,
  leverageFor,
  planLeverageOf,
  spreadSettingOf,
  marginCallOf,
  stopoutFor,
  tradingSettings,
  traderOfRow,
  type Trader,
} from '../trader.ts';
import { tradingMemoryOf } from '../trading-memory.ts';
import {
  FILL_PENDING_BATCH,
  LOAD_WALLET_TRADERS,
  NOTIFY_FILLED,
  type FilledColumns,
  type NotificationColumns,
  type WalletTraderRow,
} from './fill-statements.ts';
import { pendingLabel, type PendingFacts } from './pending-facts.ts';
import { limitsOf, reserveIn } from '../../risk/limits.ts';
import type { PendingCtx } from './pending-rules.ts';

export interface BatchFill {
  facts: PendingFacts;
  order: OrderRow;
  ocoCancelledId: number | null;
}

/** What a batch filled, and what it leaves to the one-order path (which fills it, or says why not). */
export interface BatchOutcome {
  filled: BatchFill[];
  rest: PendingFacts[];
}

/** An order priced for the batch: the columns FILL_PENDING_BATCH takes. */
interface Priced {
  margin: string;
  rate: string;
  spread: string;
  conversion: string;
  leverage: number;
  commission: string;
}

/**
 * Fills many orders of one instrument that one tick reached, in one statement (FILL_PENDING_BATCH), so that a
 * burst of fills costs about one order's round trip instead of one each. Orders are priced here as the order path
 * prices one (the same rules, helpers and rounding); the statement re-checks each against the locked wallet and
 * leaves out whatever no longer holds. Anything unusual — a netting account, a missing KYC, levels the fill price
 * passed, a conversion rate missing, a failed statement — is left to the one-order path, which decides it exactly
 * and says why; the batch only speeds up the ordinary fill.
 */
export async function fillPendingBatch(
  ctx: PendingCtx,
  batch: readonly PendingFacts[],
  tick: { bid: number; ask: number },
  digits: number,
  traders: ReadonlyMap<number, Trader>,
): Promise<BatchOutcome> {
  const instrument = tradableInstrument(ctx, batch[0].instrument);
  const settings = await tradingSettings(ctx.db);
  const kycRequired = kycRequiredForTrade(settings);
  const quote = { bid: tick.bid.toFixed(digits), ask: tick.ask.toFixed(digits) };

  const rest: PendingFacts[] = [];
  const cols = {
    pending: [] as number[],
    wallet: [] as number[],
    user: [] as number[],
    margin: [] as string[],
    planLeverage: [] as (number | null)[],
    side: [] as string[],
    amount: [] as string[],
    rate: [] as string[],
    tp: [] as (string | null)[],
    sl: [] as (string | null)[],
    spread: [] as string[],
    conversion: [] as string[],
    leverage: [] as number[],
    livePl: [] as string[],
    commission: [] as string[],
    commissionKey: [] as string[],
  };
  const byId = new Map<number, PendingFacts>();
  const priced = new Map<string, Priced | null>();
  const livePl = new Map<number, string>();
  const opening = new Map<number, number>();
  const spreadSetting = spreadSettingOf(settings, instrument.category);
  // The dealer's limits: an order one would refuse goes the one-order way, which refuses it with the reason.
  const limits = await limitsOf(ctx.db);
  const releases: Array<() => void> = [];
  try {
    for (const f of batch) {
      const trader = traders.get(f.walletId);
      const opened = (opening.get(f.walletId) ?? 0) + 1;
      if (
        !trader ||
        trader.userId !== f.userId ||
        accountTypeOf(trader) === 'netting' ||
        needsKyc(kycRequired, trader) ||
        ctx.risk.openPositions(f.walletId) + opened > MAX_OPEN_POSITIONS
      ) {
        rest.push(f);
        continue;
      }
      // Orders alike (side, amount, levels, wallet currency and leverage) price alike: a burst prices each kind once.
      const leverage = leverageFor(trader.plan, instrument);
      const commissionKey = commissionKeyOf(trader.plan, instrument.category);
      const key = `${f.side}|${f.amount}|${f.profit}|${f.loss}|${trader.wallet.currency}|${leverage}|${commissionKey}`;
      let p = priced.get(key);
      if (p === undefined) {
        p = priceFill(ctx, instrument, f, quote, trader, leverage, spreadSetting);
        priced.set(key, p);
      }
      if (!p) {
        rest.push(f);
        continue;
      }
      try {
        releases.push(
          reserveIn(limits, ctx, { instrument, mode: trader.wallet.mode, side: f.side, amount: Number(f.amount) }),
        );
      } catch {
        rest.push(f);
        continue;
      }
      let pl = livePl.get(f.walletId);
      if (pl === undefined) livePl.set(f.walletId, (pl = str(round(dec(ctx.risk.unrealizedPl(f.walletId))))));
      opening.set(f.walletId, opened);
      byId.set(f.id, f);
      cols.pending.push(f.id);
      cols.wallet.push(f.walletId);
      cols.user.push(f.userId);
      cols.margin.push(p.margin);
      cols.planLeverage.push(planLeverageOf(trader.plan, instrument.category));
      cols.side.push(f.side);
      cols.amount.push(f.amount);
      cols.rate.push(p.rate);
      cols.tp.push(f.profit);
      cols.sl.push(f.loss);
      cols.spread.push(p.spread);
      cols.conversion.push(p.conversion);
      cols.leverage.push(p.leverage);
      cols.livePl.push(pl);
      cols.commission.push(p.commission);
      cols.commissionKey.push(commissionKey);
    }
    if (cols.pending.length === 0) return { filled: [], rest };

    const rows = await statementsOf(ctx.db).rows<FilledColumns>(FILL_PENDING_BATCH, [
      cols.pending,
      cols.wallet,
      cols.user,
      cols.margin,
      cols.planLeverage,
      cols.side,
      cols.amount,
      cols.rate,
      cols.tp,
      cols.sl,
      cols.spread,
      cols.conversion,
      cols.leverage,
      cols.livePl,
      instrument.id,
      instrument.name,
      instrument.base,
      instrument.quote,
      instrument.category,
      quote.bid,
      quote.ask,
      kycRequired,
      cols.commission,
      cols.commissionKey,
    ]);

    const memory = tradingMemoryOf(ctx.db);
    const filled: BatchFill[] = [];
    // The wallets' balances after the batch's commissions (negative on the deals), which the risk engine is told.
    const charged = new Map<number, Decimal>();
    const ocoCancelled = new Map<number, number>();
    const positions: Array<{ row: OrderColumns & { wallet_balance: string }; f: PendingFacts; trader: Trader }> = [];
    for (const row of rows) {
      if (row.oco_of !== null) {
        ocoCancelled.set(row.oco_of, row.oco_cancelled_id);
        continue;
      }
      const f = byId.get(row.pending_order_id ?? -1);
      const trader = traders.get(row.balance_id);
      if (!f || !trader) continue;
      byId.delete(f.id);
      positions.push({ row, f, trader });
      const c = dec(row.commission);
      if (!c.isZero()) charged.set(row.balance_id, (charged.get(row.balance_id) ?? dec(0)).plus(c));
    }
    const balances = new Map<number, string>();
    const opened: Array<{ order: OrderRow; wallet: WalletRef }> = [];
    for (const { row, f, trader } of positions) {
      const order = orderOfColumns(row);
      let balance = balances.get(row.balance_id);
      if (balance === undefined) {
        const c = charged.get(row.balance_id);
        balance = c ? str(dec(row.wallet_balance).plus(c)) : row.wallet_balance;
        balances.set(row.balance_id, balance);
      }
      memory.rememberOpenOrder({ order, walletCurrency: trader.wallet.currency });
      opened.push({
        order,
        wallet: {
          id: order.balanceId,
          balance,
          currency: trader.wallet.currency,
          stopoutPercent: stopoutFor(trader.plan),
          marginCall: marginCallOf(trader.plan),
        },
      });
      ctx.realtime.toUser(f.userId, 'ordersChanged', {
        balanceId: order.balanceId,
        orderId: order.id,
        reason: 'opened',
      });
      filled.push({ facts: f, order, ocoCancelledId: ocoCancelled.get(f.id) ?? null });
    }
    // The engine takes the batch's positions together: one check of the instrument's prices for all of them.
    ctx.risk.openedMany(opened);
    if (filled.length) ordersPlaced.inc({ category: instrument.category }, filled.length);
    // What the statement left out goes the one-order way, after the rest it was refused before.
    for (const f of byId.values()) rest.push(f);
    return { filled, rest };
  } finally {
    for (const release of releases) release();
  }
}

/** Stores and sends the owners' notifications of a burst's fills, in one statement. */
export async function notifyFilled(ctx: PendingCtx, filled: readonly BatchFill[]): Promise<void> {
  if (filled.length === 0) return;
  const rows = await statementsOf(ctx.db).rows<NotificationColumns>(NOTIFY_FILLED, [
    filled.map(({ facts }) => facts.userId),
    filled.map(
      ({ facts: f, order }) =>
        `Your ${pendingLabel(f)} ${f.instrument} order #${f.id} filled at ${order.openRate}: position #${order.id}.`,
    ),
  ]);
  for (const n of rows)
    emitNotification(
      ctx,
      n.user_id,
      notificationDto({
        id: n.id,
        userId: n.user_id,
        title: n.title,
        description: n.description,
        url: n.url,
        readAt: n.read_at,
        createdAt: n.created_at,
      }),
    );
}

/** The traders behind a burst's wallets, in one statement, by wallet. */
export async function walletTraders(ctx: PendingCtx, batch: readonly PendingFacts[]): Promise<Map<number, Trader>> {
  const wallets = [...new Set(batch.map((f) => f.walletId))];
  const rows = await statementsOf(ctx.db).rows<WalletTraderRow>(LOAD_WALLET_TRADERS, [wallets]);
  return new Map(rows.map((r) => [r.wallet_id, traderOfRow(r.user_id, r)]));
}

/** Prices one fill as placeFor does, or null when the order path must decide it (levels passed, no rate). */
function priceFill(
  ctx: PendingCtx,
  instrument: InstrumentRow,
  f: PendingFacts,
  quote: { bid: string; ask: string },
  trader: Trader,
  leverage: number,
  spreadSetting: string,
): Priced | null {
  try {
    checkLevels(f.side, newOrderBounds(f.side, quote), f.profit, f.loss);
    const conversion = conversionOf(ctx, instrument.quote, trader.wallet.currency);
    const amount = dec(f.amount);
    const rate = openPrice(f.side, quote);
    const margin = round(
      requiredMargin({ price: rate, amount, leverage, conversionRate: conversion }),
      Decimal.ROUND_UP,
    );
    const spread = round(spreadCost({ ask: quote.ask, bid: quote.bid, spreadSetting, amount }));
    const commission = openCommission(ctx, trader, instrument, amount, rate, conversion);
    return {
      margin: str(margin),
      rate: str(rate),
      spread: str(spread),
      conversion: str(conversion),
      leverage,
      commission: str(commission),
    };
  } catch {
    return null;
  }
}
