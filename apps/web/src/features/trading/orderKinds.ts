import dayjs from 'dayjs';
import {
  dec,
  openPrice,
  pendingPriceError,
  pipSize,
  type Decimal,
  type PendingKind,
  type Side,
} from '@platform/domain';
import type { Prices } from './figures.ts';

/** What the order dialog places: a market order, or one of the six pending kinds (side × kind). */
export type OrderKindChoice = 'market' | PendingKind;

export interface OrderChoice {
  side: Side;
  kind: OrderKindChoice;
}

/** The order types in MT5's order: value `market` or `{side}:{kind}`, with their English label (a translation key). */
export const ORDER_CHOICES: ReadonlyArray<{ value: string; label: string; side?: Side; kind: OrderKindChoice }> = [
  { value: 'market', label: 'Market', kind: 'market' },
  { value: 'buy:limit', label: 'Buy Limit', side: 'buy', kind: 'limit' },
  { value: 'sell:limit', label: 'Sell Limit', side: 'sell', kind: 'limit' },
  { value: 'buy:stop', label: 'Buy Stop', side: 'buy', kind: 'stop' },
  { value: 'sell:stop', label: 'Sell Stop', side: 'sell', kind: 'stop' },
  { value: 'buy:stop_limit', label: 'Buy Stop Limit', side: 'buy', kind: 'stop_limit' },
  { value: 'sell:stop_limit', label: 'Sell Stop Limit', side: 'sell', kind: 'stop_limit' },
];

export const choiceValue = (c: OrderChoice): string => (c.kind === 'market' ? 'market' : `${c.side}:${c.kind}`);

/** The choice of a select value; `market` keeps the side the dialog was opened with. */
export function choiceOf(value: string, currentSide: Side): OrderChoice {
  const found = ORDER_CHOICES.find((c) => c.value === value);
  if (!found || found.kind === 'market') return { side: currentSide, kind: 'market' };
  return { side: found.side ?? currentSide, kind: found.kind };
}

/** "Buy Limit", "Sell Stop Limit"... (English, a translation key). */
export function pendingLabel(side: Side, kind: PendingKind): string {
  return ORDER_CHOICES.find((c) => c.side === side && c.kind === kind)?.label ?? kind;
}

/** How far from the market a new pending order's price starts: 0.2%, clear of the next few ticks. */
const START_OFFSET = '0.002';

const round = (d: Decimal, digits: number) => d.toDecimalPlaces(Math.min(digits, 8)).toFixed(Math.min(digits, 8));

/**
 * Where a new pending order's price (and a stop-limit's limit price) starts: on the side the server accepts, 0.2% from
 * the market (a Buy Limit under the ask, a Buy Stop over it; a stop-limit's limit halfway between market and stop).
 */
export function startingPrices(side: Side, kind: PendingKind, prices: Prices, digits: number) {
  const market = openPrice(side, prices);
  // Limits wait for a better price, stops for a breakout.
  const above = (side === 'buy') === (kind !== 'limit');
  const offset = market.times(START_OFFSET);
  const price = above ? market.plus(offset) : market.minus(offset);
  const limit = above ? market.plus(offset.div(2)) : market.minus(offset.div(2));
  return { price: round(price, digits), limitPrice: kind === 'stop_limit' ? round(limit, digits) : '' };
}

/** The price at which a pending order opens its position: the limit price of a stop-limit, else its price. */
export const fillPrice = (kind: PendingKind, price: string, limitPrice: string): string =>
  kind === 'stop_limit' ? limitPrice : price;

/** Quotes as they would be with the order's side at `price`, the spread kept: bounds and estimates at the order price. */
export function pricesAt(side: Side, price: Decimal.Value, prices: Prices): Prices {
  const spread = prices.ask - prices.bid;
  const p = Number(price);
  return side === 'buy' ? { ask: p, bid: p - spread } : { bid: p, ask: p + spread };
}

const isPrice = (s: string) => /^\d+(\.\d{1,8})?$/.test(s.trim()) && Number(s) > 0;

export interface PriceHint {
  /** English text (a translation key) with its values. */
  text: string;
  values: Record<string, string>;
  /** A price is missing or not a number: nothing can be sent. */
  missing?: boolean;
}

/**
 * The server's rules of a pending order's price(s) (the domain's own check), at the quote of the moment: a hint only,
 * since the quote moves and the server's answer is the one that counts. An activated stop-limit only checks its limit.
 * Returns the English message (a translation key) and its values, or null.
 */
export function pendingPriceHint(
  side: Side,
  kind: PendingKind,
  prices: Prices,
  price: string,
  limitPrice: string,
  activated = false,
): PriceHint | null {
  if (!isPrice(price)) return { text: 'Enter the order price', values: {}, missing: true };
  if (kind === 'stop_limit' && !isPrice(limitPrice))
    return { text: 'Enter the limit price', values: {}, missing: true };
  const broken = pendingPriceError(
    side,
    kind,
    price.trim(),
    kind === 'stop_limit' ? limitPrice.trim() : null,
    prices,
    activated,
  );
  if (!broken) return null;
  const values = { ask: String(prices.ask), bid: String(prices.bid), price: price.trim() };
  const buy = side === 'buy';
  if (activated)
    return {
      text: buy ? 'The limit price must be below the ask ({{ask}})' : 'The limit price must be above the bid ({{bid}})',
      values,
    };
  if (broken.field === 'limitPrice')
    return {
      text: buy
        ? 'The limit price must be at or below the stop price ({{price}})'
        : 'The limit price must be at or above the stop price ({{price}})',
      values,
    };
  const texts: Record<PendingKind, [string, string]> = {
    limit: ['A Buy Limit must be below the ask ({{ask}})', 'A Sell Limit must be above the bid ({{bid}})'],
    stop: ['A Buy Stop must be above the ask ({{ask}})', 'A Sell Stop must be below the bid ({{bid}})'],
    stop_limit: ['The stop price must be above the ask ({{ask}})', 'The stop price must be below the bid ({{bid}})'],
  };
  return { text: texts[kind][buy ? 0 : 1], values };
}

/** How long a pending order waits. `date` sends the chosen local date and time as an ISO instant. */
export type ExpiryChoice = 'gtc' | 'day' | 'date';

/** A datetime-local value one day ahead, the date field's starting value. */
export const defaultExpiryDate = (now = dayjs()): string => now.add(1, 'day').format('YYYY-MM-DDTHH:mm');

/** The expiry the API takes, or null when the chosen date is missing or not in the future. */
export function expiryValue(choice: ExpiryChoice, date: string, now = dayjs()): string | null {
  if (choice !== 'date') return choice;
  const at = dayjs(date);
  if (!date || !at.isValid() || !at.isAfter(now)) return null;
  return at.toISOString();
}

/** A distance in price as pips of the instrument (0.01 for a JPY quote, 0.0001 otherwise, as the pip value uses). */
export function inPips(distance: string, quote: string): string | null {
  if (!/^\d*\.?\d+$/.test(distance.trim())) return null;
  return dec(distance).div(pipSize(quote)).toDecimalPlaces(1).toString();
}
