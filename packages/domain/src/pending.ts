import { Decimal } from './money.ts';
import type { Side } from './trading.ts';

/**
 * Rules of pending orders (as in MT5): which side of the market each kind's price must be on when it is placed or
 * changed, and which price of a tick triggers it. Buy orders trigger on the ask, sell orders on the bid.
 */

export type PendingKindName = 'limit' | 'stop' | 'stop_limit';
type Num = Decimal.Value;
const D = (v: Num) => new Decimal(v);

/**
 * How a waiting order is triggered: the market price (ask for buys, bid for sells) at or below (`le`) or at or above
 * (`ge`) the trigger price. A buy limit waits for the ask to fall to its price; a buy stop for the ask to rise to it;
 * a stop-limit first waits like a stop, then (activated) like a limit at its limit price.
 */
export type PendingTrigger = 'ask_le' | 'ask_ge' | 'bid_ge' | 'bid_le';

export function pendingTrigger(
  side: Side,
  kind: PendingKindName,
  activated: boolean,
): { trigger: PendingTrigger; on: 'price' | 'limitPrice' } {
  const limitLike = kind === 'limit' || (kind === 'stop_limit' && activated);
  const on = kind === 'stop_limit' && activated ? 'limitPrice' : 'price';
  if (side === 'buy') return { trigger: limitLike ? 'ask_le' : 'ask_ge', on };
  return { trigger: limitLike ? 'bid_ge' : 'bid_le', on };
}

/** Whether a quote reaches a trigger. */
export function reaches(trigger: PendingTrigger, price: number, q: { bid: number; ask: number }): boolean {
  switch (trigger) {
    case 'ask_le':
      return q.ask <= price;
    case 'ask_ge':
      return q.ask >= price;
    case 'bid_ge':
      return q.bid >= price;
    case 'bid_le':
      return q.bid <= price;
  }
}

/**
 * Where a pending order's prices must be against the current quote: a Buy Limit below the ask, a Sell Limit above
 * the bid, a Buy Stop above the ask, a Sell Stop below the bid; a Buy Stop Limit's stop above the ask and its limit at
 * or below the stop, a Sell Stop Limit's stop below the bid and its limit at or above the stop. Answers the field and
 * the message of the first rule broken, or null. An activated stop-limit only checks its limit against the market.
 */
export function pendingPriceError(
  side: Side,
  kind: PendingKindName,
  price: Num,
  limitPrice: Num | null,
  q: { bid: Num; ask: Num },
  activated = false,
): { field: 'price' | 'limitPrice'; message: string } | null {
  const p = D(price);
  const ask = D(q.ask);
  const bid = D(q.bid);
  if (kind === 'stop_limit' && activated) {
    const l = D(limitPrice ?? 0);
    if (side === 'buy' && !l.lt(ask))
      return { field: 'limitPrice', message: `The limit price must be below the ask (${ask}).` };
    if (side === 'sell' && !l.gt(bid))
      return { field: 'limitPrice', message: `The limit price must be above the bid (${bid}).` };
    return null;
  }
  if (side === 'buy') {
    if (kind === 'limit' && !p.lt(ask))
      return { field: 'price', message: `A Buy Limit's price must be below the ask (${ask}).` };
    if (kind !== 'limit' && !p.gt(ask))
      return {
        field: 'price',
        message: `A Buy ${kind === 'stop' ? 'Stop' : 'Stop Limit'}'s stop price must be above the ask (${ask}).`,
      };
  } else {
    if (kind === 'limit' && !p.gt(bid))
      return { field: 'price', message: `A Sell Limit's price must be above the bid (${bid}).` };
    if (kind !== 'limit' && !p.lt(bid))
      return {
        field: 'price',
        message: `A Sell ${kind === 'stop' ? 'Stop' : 'Stop Limit'}'s stop price must be below the bid (${bid}).`,
      };
  }
  if (kind === 'stop_limit') {
    const l = D(limitPrice ?? 0);
    if (side === 'buy' && l.gt(p))
      return { field: 'limitPrice', message: "A Buy Stop Limit's limit price must be at or below its stop price." };
    if (side === 'sell' && l.lt(p))
      return { field: 'limitPrice', message: "A Sell Stop Limit's limit price must be at or above its stop price." };
  }
  return null;
}

/** The price a pending order opens its position near: its limit (limit, stop-limit) or stop price. */
export const pendingOpenPrice = (kind: PendingKindName, price: Num, limitPrice: Num | null): Decimal =>
  D(kind === 'stop_limit' ? (limitPrice ?? price) : price);
