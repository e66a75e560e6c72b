import type { Category } from '@platform/domain';
import { UNIVERSE } from '../db/seed/instruments.ts';
import type { InstrumentRow } from './instruments.ts';
import type { PriceBook, Quote } from './price-book.ts';
import { createRandom } from './random.ts';
import type { FeedProvider } from './feed-provider.ts';

/** Annualised volatility per category, roughly what these markets show. */
export const ANNUAL_VOLATILITY: Record<Category, number> = {
  forex: 0.08,
  commodity: 0.2,
  index: 0.18,
  stock: 0.3,
  crypto: 0.6,
};

const YEAR_MS = 365.25 * 86_400_000;
/**
 * At a few ticks per second a real market's volatility moves EUR/USD by a fraction of a pip, which looks frozen
 * on screen. The demo amplifies the short-term noise (most ticks move EUR/USD by about a pip) and pulls each price
 * back within half an hour or so towards an anchor, which itself walks at the real volatility: over days the
 * price wanders about as far as a real one would.
 */
const DEMO_BOOST = 6;
const REVERSION_MS = 30 * 60_000;
/** Share of the open instruments that move in one burst, so not every price changes at once. */
const MOVE_SHARE = 0.35;
/** Spreads vary between the typical spread and this much wider. */
const SPREAD_WIDENING = 0.25;
/** Closeout prices sit this share of the spread (at least one unit) outside bid and ask. */
const CLOSEOUT_SHARE = 0.15;

/** The typical spread of each seeded instrument, taken from the seed rather than the stored last quote, whose spread drifts. */
const SEEDED_SPREAD = new Map(Object.values(UNIVERSE).flatMap((rows) => rows.map((r) => [r[0], r[7]] as const)));

export interface SimulatedFeedOptions {
  book: PriceBook;
  /** Instruments to price, read at every burst (the feed manager hands over only the categories no provider covers). */
  instruments: () => readonly InstrumentRow[];
  isOpen: (category: Category) => boolean;
  seed: number;
  tickMs: number;
  now?: () => number;
  /** Where a failing tick listener is reported; the timer must keep running whatever a listener does. */
  onError?: (err: unknown) => void;
}

export interface SimulatedFeed extends FeedProvider {
  /** One burst now (the timer calls it every tickMs; tests call it directly). */
  burst(): void;
}

interface WalkState {
  /** Unrounded mid price, so moves smaller than one display unit still accumulate. */
  mid: number;
  /** Slow, realistic walk (starting where the feed found the price) that the fast demo noise reverts towards. */
  anchor: number;
  /** Last published quote, to notice when someone else (staff, a provider) changed the book. */
  bid: number;
  ask: number;
}

export function createSimulatedFeed(opts: SimulatedFeedOptions): SimulatedFeed {
  const random = createRandom(opts.seed);
  const now = opts.now ?? Date.now;
  const states = new Map<string, WalkState>();
  const moveMs = opts.tickMs / MOVE_SHARE;
  const reversion = Math.min(1, moveMs / REVERSION_MS);
  let timer: NodeJS.Timeout | null = null;

  const stateOf = (row: InstrumentRow): WalkState | null => {
    const quote = opts.book.get(row.name);
    const known = states.get(row.name);
    if (known && (!quote || (quote.bid === known.bid && quote.ask === known.ask))) return known;
    const bid = quote?.bid ?? Number(row.bids);
    const ask = quote?.ask ?? Number(row.asks);
    if (!(bid > 0) || !(ask >= bid)) return null;
    const mid = (bid + ask) / 2;
    const state = { mid, anchor: mid, bid, ask };
    states.set(row.name, state);
    return state;
  };

  const typicalSpread = (row: InstrumentRow, state: WalkState): number => {
    const seeded = SEEDED_SPREAD.get(row.name);
    if (seeded !== undefined) return seeded;
    const stored = Number(row.asks) - Number(row.bids);
    return stored > 0 ? stored : state.mid * 0.0002;
  };

  const move = (row: InstrumentRow, state: WalkState, time: number): Quote => {
    const sigma = ANNUAL_VOLATILITY[row.category] * Math.sqrt(moveMs / YEAR_MS);
    // Log-space steps: prices stay positive and moves scale with the price level.
    state.anchor *= Math.exp(sigma * random.gauss());
    state.mid *= Math.exp(-reversion * Math.log(state.mid / state.anchor) + DEMO_BOOST * sigma * random.gauss());
    const scale = 10 ** row.digits;
    const spreadUnits = Math.max(
      1,
      Math.round(typicalSpread(row, state) * (1 + SPREAD_WIDENING * random.next()) * scale),
    );
    const bidUnits = Math.max(1, Math.round(state.mid * scale - spreadUnits / 2));
    const askUnits = bidUnits + spreadUnits;
    const outside = Math.max(1, Math.round(spreadUnits * CLOSEOUT_SHARE));
    // Dividing integer units by a power of ten yields the closest double to the decimal, i.e. a clean rounding.
    state.bid = bidUnits / scale;
    state.ask = askUnits / scale;
    return {
      name: row.name,
      bid: state.bid,
      ask: state.ask,
      closeoutBid: Math.max(1, bidUnits - outside) / scale,
      closeoutAsk: (askUnits + outside) / scale,
      time,
    };
  };

  const burst = (): void => {
    const time = now();
    const moved: Quote[] = [];
    for (const row of opts.instruments()) {
      if (!opts.isOpen(row.category)) continue;
      if (random.next() >= MOVE_SHARE) continue;
      const state = stateOf(row);
      if (state) moved.push(move(row, state, time));
    }
    if (moved.length === 0) return;
    try {
      opts.book.apply(moved);
    } catch (err) {
      (opts.onError ?? console.error)(err);
    }
  };

  return {
    id: 'simulated',
    burst,
    start() {
      if (timer) return;
      timer = setInterval(burst, opts.tickMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
