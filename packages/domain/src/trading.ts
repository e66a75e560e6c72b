import { Decimal } from './money.ts';

/** Trading formulas of the client-area spec §9, in decimal arithmetic. Rates and amounts are decimal strings or Decimals. */
type Num = Decimal.Value;
const D = (v: Num) => new Decimal(v);

export const CATEGORIES = ['forex', 'commodity', 'index', 'stock', 'crypto'] as const;
export type Category = (typeof CATEGORIES)[number];
export type Side = 'buy' | 'sell';

/** Stop-out percent when the pricing plan sets none (spec §9). */
export const DEFAULT_STOPOUT_PERCENT = 50;

/**
 * The smallest order size typed in amount mode, per category: the dialog opens at it and its plus and minus buttons
 * step by it (0.01 BTC, not 1 BTC worth a small account's whole balance).
 */
export const AMOUNT_STEP: Record<(typeof CATEGORIES)[number], string> = {
  forex: '1000',
  commodity: '1',
  index: '1',
  stock: '1',
  crypto: '0.01',
};

/** Leverage of a category: the plan's {category}_leverage, else the instrument's own. */
export function resolveLeverage(planLeverage: number | null | undefined, instrumentLeverage: number): number {
  return planLeverage && planLeverage > 0 ? planLeverage : instrumentLeverage;
}

export function resolveStopout(planStopout: number | null | undefined): number {
  return planStopout && planStopout > 0 ? planStopout : DEFAULT_STOPOUT_PERCENT;
}

/**
 * Required margin = price × amount / leverage / conversion rate, where the conversion rate is the number of
 * quote-currency units per unit of the wallet currency (1 when they are the same).
 */
export function requiredMargin(p: { price: Num; amount: Num; leverage: Num; conversionRate: Num }): Decimal {
  return D(p.price).times(p.amount).div(p.leverage).div(p.conversionRate);
}

/** 0.01 for JPY-quoted instruments, 0.0001 otherwise. */
export const pipSize = (quote: string): Decimal => D(quote.toUpperCase() === 'JPY' ? '0.01' : '0.0001');

/** Pip value in the wallet currency = pip size × amount / conversion rate. */
export function pipValue(p: { quote: string; amount: Num; conversionRate: Num }): Decimal {
  return pipSize(p.quote).times(p.amount).div(p.conversionRate);
}

/** Spread cost in the quote currency = (ask − bid at open) × spread setting value1 × amount. */
export function spreadCost(p: { ask: Num; bid: Num; spreadSetting: Num; amount: Num }): Decimal {
  return D(p.ask).minus(p.bid).times(p.spreadSetting).times(p.amount);
}

/** The price a side opens at (buy at ask, sell at bid) and closes at (buy at bid, sell at ask). */
export const openPrice = (side: Side, q: { bid: Num; ask: Num }): Decimal => D(side === 'buy' ? q.ask : q.bid);
export const closePrice = (side: Side, q: { bid: Num; ask: Num }): Decimal => D(side === 'buy' ? q.bid : q.ask);

/** Profit or loss in the wallet currency = (amount × rate difference − spread cost) / conversion rate. */
export function profitLoss(p: {
  side: Side;
  openRate: Num;
  closeRate: Num;
  amount: Num;
  spread: Num;
  conversionRate: Num;
}): Decimal {
  const diff = p.side === 'buy' ? D(p.closeRate).minus(p.openRate) : D(p.openRate).minus(p.closeRate);
  return diff.times(p.amount).minus(p.spread).div(p.conversionRate);
}

/** Margin level in percent (equity ÷ used margin × 100), or null without used margin. */
export function marginLevel(equity: Num, usedMargin: Num): Decimal | null {
  const m = D(usedMargin);
  return m.isZero() ? null : D(equity).div(m).times(100);
}

/** Bounds of take-profit and stop-loss for a new order at the current price (spec §5). */
export function newOrderBounds(side: Side, q: { bid: Num; ask: Num }) {
  const ask = D(q.ask);
  const bid = D(q.bid);
  return side === 'buy'
    ? { takeProfit: { min: ask, max: null }, stopLoss: { min: D(0), max: ask } }
    : { takeProfit: { min: D(0), max: bid }, stopLoss: { min: bid, max: null } };
}

/** Bounds of take-profit and stop-loss on an open order, around its open rate (spec §5). */
export function openOrderBounds(side: Side, openRate: Num) {
  const open = D(openRate);
  return side === 'buy'
    ? { takeProfit: { min: open, max: null }, stopLoss: { min: D(0), max: open } }
    : { takeProfit: { min: D(0), max: open }, stopLoss: { min: open, max: null } };
}

export const withinBounds = (value: Num, b: { min: Decimal; max: Decimal | null }): boolean =>
  D(value).gte(b.min) && (b.max === null || D(value).lte(b.max));

/**
 * Which protective level a price reaches: a buy closes at the bid when it falls to its stop-loss or rises to its
 * take-profit; a sell closes at the ask when it rises to its stop-loss or falls to its take-profit.
 */
export function triggeredExit(
  side: Side,
  q: { bid: Num; ask: Num },
  levels: { takeProfit: Num | null; stopLoss: Num | null },
): 'take_profit' | 'stop_loss' | null {
  const price = closePrice(side, q);
  if (side === 'buy') {
    if (levels.stopLoss !== null && price.lte(levels.stopLoss)) return 'stop_loss';
    if (levels.takeProfit !== null && price.gte(levels.takeProfit)) return 'take_profit';
  } else {
    if (levels.stopLoss !== null && price.gte(levels.stopLoss)) return 'stop_loss';
    if (levels.takeProfit !== null && price.lte(levels.takeProfit)) return 'take_profit';
  }
  return null;
}

/*
 * Plain constants of trading, kept apart from the zod schemas so that screens which need only these do not ship the
 * schema library (the domain package is side-effect free: a module nobody imports a value from is left out).
 */

/** Why a position closed: by its owner, by staff, or by the server's risk engine. */
export const CLOSE_REASONS = ['manual', 'take_profit', 'stop_loss', 'stop_out', 'admin'] as const;
export const CLOSE_REASON_LABELS: Record<(typeof CLOSE_REASONS)[number], string> = {
  manual: 'Closed',
  take_profit: 'Take profit',
  stop_loss: 'Stop loss',
  stop_out: 'Stop out',
  admin: 'Closed by broker',
};

export type MarketName = 'fx' | 'stock' | 'crypto';
/** Which market-status flag governs a category. */
export const marketOfCategory = (c: Category): MarketName =>
  c === 'stock' ? 'stock' : c === 'crypto' ? 'crypto' : 'fx';

/** The bar sizes the server stores; the chart's other timeframes are built from them. */
export const CANDLE_INTERVALS = ['1m', '1h', '1d'] as const;
/** The chart's timeframes (daily by default, spec §2), each with its length and the stored bars it is built from. */
export const CHART_INTERVALS = ['1m', '5m', '15m', '1h', '4h', '1d', '1w', '1mo'] as const;
export type ChartInterval = (typeof CHART_INTERVALS)[number];
export const CHART_INTERVAL_SPECS: Record<
  ChartInterval,
  { seconds: number; source: (typeof CANDLE_INTERVALS)[number] }
> = {
  '1m': { seconds: 60, source: '1m' },
  '5m': { seconds: 300, source: '1m' },
  '15m': { seconds: 900, source: '1m' },
  '1h': { seconds: 3600, source: '1h' },
  '4h': { seconds: 14_400, source: '1h' },
  '1d': { seconds: 86_400, source: '1d' },
  '1w': { seconds: 604_800, source: '1d' },
  // Nominal: months are cut by the calendar (chartBarStart), so their bars differ in length.
  '1mo': { seconds: 2_592_000, source: '1d' },
};

const DAY_SECONDS = 86_400;
/** Monday 1969-12-29 00:00 UTC in Unix seconds: the epoch fell on a Thursday. */
const FIRST_MONDAY = -3 * DAY_SECONDS;

/**
 * Start, in Unix seconds (UTC), of the bar of `interval` holding the instant `seconds`: a week starts on Monday
 * 00:00 UTC and a month on its 1st at 00:00 UTC; the other bars are whole multiples of their length since the epoch.
 */
export function chartBarStart(interval: ChartInterval, seconds: number): number {
  if (interval === '1w') {
    const week = 7 * DAY_SECONDS;
    return Math.floor((seconds - FIRST_MONDAY) / week) * week + FIRST_MONDAY;
  }
  if (interval === '1mo') {
    const d = new Date(seconds * 1000);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
  }
  const length = CHART_INTERVAL_SPECS[interval].seconds;
  return Math.floor(seconds / length) * length;
}
