import type { OrderRow } from '../../engine/hooks.ts';
import { KeyedQueue } from '../../lib/keyed-queue.ts';
import { OrderPathWatch } from './order-path-watch.ts';

/** Bound on what is remembered; past it the hot path simply reads the database first, as on a cold start. */
const MAX_OPEN_ORDERS = 200_000;

/**
 * What a close needs to price a position, and the wallet currency. Amount, spread and margin change with a partial
 * close: the close statements check them against the row and the close is priced again when they no longer match.
 */
export interface OpenOrderFacts {
  order: OrderRow;
  walletCurrency: string;
}

/**
 * What this server process remembers about open positions so that closing takes one database round trip (a trader's
 * own facts and their cache live in trader.ts). Everything here is a hint: the write statement re-checks it with the
 * wallet locked and refuses or re-prices when it no longer holds, so a stale entry (a partial close or a close by
 * another server) never changes a result. Also each wallet's queue: its opens and closes run one after another in
 * this process, so the risk engine's live P/L and position count for the wallet match what is committed when the
 * next one is checked.
 */
export class TradingMemory {
  readonly walletQueue = new KeyedQueue<number>();
  /** The order path's answer times, for the background work that yields to it. */
  readonly orderPath = new OrderPathWatch();
  private readonly openOrders = new Map<number, OpenOrderFacts>();

  openOrder(orderId: number): OpenOrderFacts | undefined {
    return this.openOrders.get(orderId);
  }
  rememberOpenOrder(facts: OpenOrderFacts): void {
    if (this.openOrders.size < MAX_OPEN_ORDERS) this.openOrders.set(facts.order.id, facts);
  }
  forgetOpenOrder(orderId: number): void {
    this.openOrders.delete(orderId);
  }
}

const memories = new WeakMap<object, TradingMemory>();

/** The memory of one database (tests open several in one process). */
export function tradingMemoryOf(db: object): TradingMemory {
  let m = memories.get(db);
  if (!m) memories.set(db, (m = new TradingMemory()));
  return m;
}
