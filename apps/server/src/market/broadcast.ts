import type { MarketStatus, PriceTick } from '@platform/domain';
import type { Realtime } from '../realtime/realtime.ts';
import type { PriceBook, Quote } from './price-book.ts';

export const PRICE_BATCH_MS = 250;
export const STATUS_CHECK_MS = 15_000;

export interface MarketBroadcaster {
  start(): void;
  stop(): void;
  /** Sends the pending price batch now (otherwise it goes out as soon as the batch interval allows). */
  flushPrices(): void;
  /** Recomputes the market status and broadcasts it if it changed (the timer does it every STATUS_CHECK_MS). */
  checkStatus(): void;
}

export interface MarketBroadcasterOptions {
  book: PriceBook;
  realtime: Pick<Realtime, 'broadcast'>;
  status: () => MarketStatus;
  priceBatchMs?: number;
  statusCheckMs?: number;
}

const sameStatus = (a: MarketStatus, b: MarketStatus) => a.fx === b.fx && a.stock === b.stock && a.crypto === b.crypto;
const tickOf = (q: Quote): PriceTick => ({
  name: q.name,
  bids: q.bid,
  asks: q.ask,
  closeoutBid: q.closeoutBid,
  closeoutAsk: q.closeoutAsk,
  time: q.time,
});

/**
 * Pushes prices and market status to every connected client. Ticks are batched: the names changed since the last
 * batch go out as ONE `priceUpdate` with each name's latest quote, so a client gets one message per batch however
 * many instruments moved, and the realtime layer encodes that message once for all clients. A client too far behind
 * to take a batch skips it and gets every instrument's price in place of the next one it does take (see
 * Realtime.broadcast), so its memory on the server stays bounded and no price it missed stays stale.
 * At most one batch per PRICE_BATCH_MS, sent as early as that allows: a tick arriving after a quiet interval goes
 * out at once (after the current burst is complete), not on the next beat of a fixed timer, which would add up
 * to a whole interval of delay to every price.
 */
export function createMarketBroadcaster(opts: MarketBroadcasterOptions): MarketBroadcaster {
  const { book, realtime } = opts;
  const changed = new Set<string>();
  const batchMs = opts.priceBatchMs ?? PRICE_BATCH_MS;
  let unsubscribe: (() => void) | null = null;
  let priceTimer: NodeJS.Timeout | null = null;
  let statusTimer: NodeJS.Timeout | null = null;
  let lastStatus: MarketStatus | null = null;
  /** When the last batch was due; the next may go out one interval later. */
  let lastBatch = -Infinity;
  /** When the scheduled batch is due. */
  let due: number | null = null;

  const flushPrices = (): void => {
    if (priceTimer) clearTimeout(priceTimer);
    priceTimer = null;
    // Counting from when the batch was due, not from when a busy event loop got to it, keeps timer lateness from
    // accumulating into a delay on every later price.
    const sentAt = due ?? performance.now();
    due = null;
    if (changed.size === 0) return;
    lastBatch = sentAt;
    const ticks: PriceTick[] = [];
    for (const name of changed) {
      const q = book.get(name);
      if (q) ticks.push(tickOf(q));
    }
    changed.clear();
    if (ticks.length > 0) realtime.broadcast('priceUpdate', ticks, { catchUp: () => book.all().map(tickOf) });
  };

  const schedule = (): void => {
    if (priceTimer) return;
    const now = performance.now();
    due = Math.max(now, lastBatch + batchMs);
    // Even a zero delay lets the rest of the burst (and others in the same turn of the event loop) join.
    priceTimer = setTimeout(flushPrices, due - now);
    priceTimer.unref();
  };

  const checkStatus = (): void => {
    const now = opts.status();
    if (lastStatus && sameStatus(lastStatus, now)) return;
    lastStatus = now;
    realtime.broadcast('marketStatus', now);
  };

  return {
    flushPrices,
    checkStatus,
    start() {
      if (unsubscribe) return;
      unsubscribe = book.onTicks((quotes) => {
        for (const q of quotes) changed.add(q.name);
        schedule();
      });
      lastStatus = null;
      checkStatus();
      statusTimer = setInterval(checkStatus, opts.statusCheckMs ?? STATUS_CHECK_MS);
      statusTimer.unref();
    },
    stop() {
      unsubscribe?.();
      unsubscribe = null;
      if (priceTimer) clearTimeout(priceTimer);
      if (statusTimer) clearInterval(statusTimer);
      priceTimer = statusTimer = null;
      changed.clear();
    },
  };
}

/** A newly connected socket gets the current market status at once, so the dashboard knows what is closed. */
export function sendStatusOnConnect(realtime: Pick<Realtime, 'onConnect'>, status: () => MarketStatus): () => void {
  return realtime.onConnect((socket) => {
    socket.emit('marketStatus', status());
  });
}
