import {
  chargesAt,
  closePrice,
  commissionOf,
  dec,
  formatMoney,
  openPrice,
  pipValue,
  profitLoss,
  requiredMargin,
  effectiveLeverage,
  retailCapsOf,
  spreadCost,
  toFixed,
  type CategoryName,
  type CommissionTerms,
  type Decimal,
  type InstrumentDto,
  type OrderDto,
  type PricingTableDto,
  type Side,
} from '@platform/domain';

/**
 * The spread setting (spread_{category} value1) multiplies the spread cost of an order. No endpoint gives it
 * to the client, so the order dialog's estimate uses 1, the value every category ships with.
 */
export const SPREAD_SETTING = 1;

export interface Prices {
  bid: number;
  ask: number;
}

/** "EUR/USD" for EUR_USD. */
export const pairLabel = (base: string, quote: string): string => `${base}/${quote}`;

/** A price with the instrument's digits, or "-" before the first quote. */
export function formatPrice(value: number | string | null | undefined, digits: number): string {
  if (value === null || value === undefined || value === '') return '-';
  return toFixed(value, digits);
}

/** Live P/L of an open position in the wallet currency, closing at the current price (buy at bid, sell at ask). */
export function openPositionProfitLoss(
  order: OrderDto,
  prices: Prices | undefined,
  conversionRate: string | undefined,
): Decimal | null {
  if (!prices) return null;
  return profitLoss({
    side: order.type,
    openRate: order.open_rate,
    closeRate: closePrice(order.type, prices),
    amount: order.trade_amount,
    spread: order.spread,
    // The rate of the moment when known, else the one the position opened with.
    conversionRate: conversionRate ?? order.exchange_rate,
  });
}

/** Profit/loss as the tables show it: 5 decimals with the currency; green above 0, red otherwise (spec §9). */
export function formatProfitLoss(
  value: Decimal | string | null | undefined,
  currency: string,
): { text: string; color: string | undefined } {
  if (value === null || value === undefined) return { text: '-', color: undefined };
  const d = dec(value);
  return { text: formatMoney(d, currency, 5), color: d.greaterThan(0) ? 'teal' : 'red' };
}

/** A deal's swap or commission so far: signed like the ledger (negative paid, red; positive earned, green), plain when none. */
export function formatCharge(value: string | undefined, currency: string): { text: string; color: string | undefined } {
  const d = dec(value ?? '0');
  if (d.isZero()) return { text: formatMoney(d, currency, 2), color: 'dimmed' };
  return { text: formatMoney(d, currency, 2), color: d.greaterThan(0) ? 'teal' : 'red' };
}

/**
 * Leverage of an instrument for this client, as the server margins it: the plan's {category}_leverage, else the
 * instrument's own, capped on a retail plan at the cap of the instrument's class.
 */
export function leverageOf(
  plan: PricingTableDto | null | undefined,
  instrument: { category: CategoryName; base: string; quote: string; leverage: number },
): number {
  const planLeverage = plan ? plan[`${instrument.category}_leverage`] : null;
  const retail = plan?.retail ? { retail: true, caps: retailCapsOf(plan.retail_caps) } : null;
  return effectiveLeverage(planLeverage, instrument, retail);
}

/** How far from the price a take-profit or stop-loss starts when switched on in the order dialog. */
const START_DISTANCE = '0.01';

/**
 * Where a new order's take-profit or stop-loss starts: 1% beyond the opening price on its own side (a buy's
 * take-profit above the ask, its stop-loss below). Right at the price it would leave its range with the next tick.
 */
export function startingLevel(side: Side, level: 'takeProfit' | 'stopLoss', prices: Prices, digits: number): string {
  const up = (side === 'buy') === (level === 'takeProfit');
  const factor = up ? dec(1).plus(START_DISTANCE) : dec(1).minus(START_DISTANCE);
  return openPrice(side, prices).times(factor).toFixed(Math.min(digits, 5));
}

/** The plan's commission terms for a category, or null when it charges nothing there (or there is no plan). */
export function commissionTermsOf(
  plan: PricingTableDto | null | undefined,
  category: CategoryName,
): CommissionTerms | null {
  const rate = plan?.[`${category}_commission`];
  if (!plan || rate === undefined || dec(rate).isZero()) return null;
  return { rate, basis: plan.commission_basis ?? 'lot', charge: plan.commission_charge ?? 'open' };
}

/** What a new order pays in commission, in the wallet's currency, and when (the plan's terms; see commissionOf). */
export interface OrderCommission {
  /** The figure of one charge (positive: what the wallet pays); null while the US dollar rate is not known yet. */
  amount: Decimal | null;
  /** Charged when the position opens… */
  atOpen: boolean;
  /** …and/or when it closes (the same figure for the whole amount). */
  atClose: boolean;
}

/**
 * The commission of a new order of `amount` at `price`, at the dialog's conversion rates: `quoteConversion` for the
 * instrument's quote currency, `usdConversion` for US dollars (units per unit of the wallet currency). Null when the
 * plan charges none for the category.
 */
export function orderCommission(p: {
  plan: PricingTableDto | null | undefined;
  category: CategoryName;
  /** The instrument's units in one lot (InstrumentDto.contract_size), else the category's default. */
  contractSize?: string | null;
  amount: Decimal.Value;
  price: Decimal.Value;
  quoteConversion: string;
  usdConversion: string | null;
}): OrderCommission | null {
  const terms = commissionTermsOf(p.plan, p.category);
  if (!terms) return null;
  const amount =
    p.usdConversion === null
      ? null
      : commissionOf({
          terms,
          category: p.category,
          contractSize: p.contractSize,
          amount: p.amount,
          price: p.price,
          quoteConversion: p.quoteConversion,
          usdConversion: p.usdConversion,
        });
  return { amount, atOpen: chargesAt(terms.charge, 'open'), atClose: chargesAt(terms.charge, 'close') };
}

export const INSUFFICIENT_BALANCE = 'Insufficient Balance!';
export const INSUFFICIENT_FREE_MARGIN = 'Insufficient Free Margin!';

export interface OrderEstimateInput {
  side: Side;
  prices: Prices;
  instrument: Pick<InstrumentDto, 'quote'>;
  /** Empty or unparsable counts as no amount. */
  amount: string;
  leverage: number;
  conversionRate: string;
  balance: string;
  margin: string;
  /** Live P/L of the wallet's open positions. */
  openProfitLoss: Decimal.Value;
  /** The commission charged as the position opens: balance and free margin must cover it beside the margin. */
  openCommission?: Decimal.Value;
}

export interface OrderEstimate {
  price: Decimal;
  requiredMargin: Decimal;
  pipValue: Decimal;
  /** What the position would make if closed at once: the spread and the spread cost. */
  profitLoss: Decimal;
  /** "Insufficient Balance!" first, else "Insufficient Free Margin!" (spec §5). */
  problem: typeof INSUFFICIENT_BALANCE | typeof INSUFFICIENT_FREE_MARGIN | null;
  hasAmount: boolean;
}

/** An order size as typed: 0 when empty or not a plain positive number. */
export const amountOf = (text: string): Decimal => (/^\d*\.?\d+$/.test(text.trim()) ? dec(text.trim()) : dec(0));

export function estimateOrder(p: OrderEstimateInput): OrderEstimate {
  const amount = amountOf(p.amount);
  const price = openPrice(p.side, p.prices);
  const margin = requiredMargin({ price, amount, leverage: p.leverage, conversionRate: p.conversionRate });
  const spread = spreadCost({ ask: p.prices.ask, bid: p.prices.bid, spreadSetting: SPREAD_SETTING, amount });
  const estimate = profitLoss({
    side: p.side,
    openRate: price,
    closeRate: closePrice(p.side, p.prices),
    amount,
    spread,
    conversionRate: p.conversionRate,
  });
  const freeMargin = dec(p.balance).minus(p.margin).plus(p.openProfitLoss);
  // The server takes the open commission with the margin, in one statement: both must fit.
  const needed = margin.plus(p.openCommission ?? 0);
  const problem = needed.greaterThan(p.balance)
    ? INSUFFICIENT_BALANCE
    : needed.greaterThan(freeMargin)
      ? INSUFFICIENT_FREE_MARGIN
      : null;
  return {
    price,
    requiredMargin: margin,
    pipValue: pipValue({ quote: p.instrument.quote, amount, conversionRate: p.conversionRate }),
    profitLoss: estimate,
    problem,
    hasAmount: amount.greaterThan(0),
  };
}
