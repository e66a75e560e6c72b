import type { OrderRow } from '../../engine/hooks.ts';
import { KeyedQueue } from '../../lib/keyed-queue.ts';
import type { Trader } from './trader.ts';

/** Bounds on what is remembered; past them the hot path simply reads the database first, as on a cold start. */
const MAX_TRADERS = 50_000;
const MAX_OPEN_ORDERS = 200_000;

/** What a close needs to price a position: the fields that never change after the open, and the wallet currency. */
export interface OpenOrderFacts {
  order: OrderRow;
  walletCurrency: string;
}

/**
 * What this server process remembers between orders so that placing and closing each take one database round trip.
 * Everything here is a hint: the write statement re-checks it with the wallet locked and refuses or re-prices when
 * it no longer holds, so a stale entry (a wallet switch, a plan change, a close by another server) never changes
 * a result. Also each wallet's queue: its opens and closes run one after another in this process, so the risk
 * engine's live P/L and position count for the wallet match what is committed when the next one is checked.
 */
export class TradingMemory {
  readonly walletQueue = new KeyedQueue<number>();
  private readonly traders = new Map<number, Trader>();
  private readonly openOrders = new Map<number, OpenOrderFacts>();

  trader(userId: number): Trader | undefined {
    return this.traders.get(userId);
  }
  rememberTrader(trader: Trader): void {
    if (this.traders.size >= MAX_TRADERS && !this.traders.has(trader.userId)) this.traders.clear();
    this.traders.set(trader.userId, trader);
  }
  forgetTrader(userId: number): void {
    this.traders.delete(userId);
  }

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
