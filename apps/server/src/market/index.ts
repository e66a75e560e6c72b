import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Realtime } from '../realtime/realtime.ts';
import { PriceBook } from './price-book.ts';
import { InstrumentRegistry, type InstrumentRow } from './instruments.ts';
import { MarketClock } from './hours.ts';
import { CandleAggregator } from './candles.ts';
import { ensureHistory } from './candle-history.ts';
import { createMarketBroadcaster, sendStatusOnConnect } from './broadcast.ts';
import { createQuoteStore } from './quote-store.ts';
import { createSimulatedFeed } from './simulated-feed.ts';
import { createFeedManager } from './feed-manager.ts';
import { ConversionGraph } from './conversion.ts';
import type { FeedProvider } from './feed-provider.ts';
import type { Market } from './types.ts';

export type { Market } from './types.ts';

/** How often the bars in progress are written to the candles table, and old minute bars pruned. */
const CANDLE_FLUSH_MS = 5_000;
const CANDLE_PRUNE_MS = 3_600_000;

export interface MarketDeps {
  config: Config;
  db: Db;
  realtime: Realtime;
  /** Progress and failures of the background work (defaults to the console). */
  log?: (msg: string, err?: unknown) => void;
}

/**
 * Builds the market: instruments and last stored prices are loaded here, and a newly connected socket gets the
 * market status. Feeds, candles, price broadcasts and quote saving run between start() and stop(), which only the
 * server process calls (tests drive the parts directly).
 */
export async function createMarket(deps: MarketDeps): Promise<Market> {
  const { config, db, realtime } = deps;
  const log = deps.log ?? ((msg: string, err?: unknown) => (err ? console.error(msg, err) : console.log(msg)));
  const book = new PriceBook();
  const instruments = new InstrumentRegistry();
  await instruments.reload(db);
  const now = Date.now();
  book.prime(
    instruments
      .list()
      .filter((i) => i.bids !== null && i.asks !== null)
      .map((i) => ({
        name: i.name,
        bid: Number(i.bids),
        ask: Number(i.asks),
        closeoutBid: Number(i.bids),
        closeoutAsk: Number(i.asks),
        time: now,
      })),
  );
  const clock = new MarketClock(config.MARKET_HOURS);
  const status = () => clock.statusWithReopening();
  const isOpen = (c: InstrumentRow['category']) => clock.isOpen(c);

  const aggregator = new CandleAggregator(db, (name) => instruments.byNameOf(name)?.id);
  const broadcaster = createMarketBroadcaster({ book, realtime, status });
  const quotes = createQuoteStore({
    db,
    book,
    digitsOf: (name) => instruments.byNameOf(name)?.digits,
    onError: (err) => log('saving quotes failed', err),
  });
  sendStatusOnConnect(realtime, status);

  const simulated = (list: () => readonly InstrumentRow[]): FeedProvider =>
    createSimulatedFeed({
      book,
      instruments: list,
      isOpen,
      seed: config.FEED_SEED,
      tickMs: config.FEED_TICK_MS,
      onError: (err) => log('price listener failed', err),
    });
  // Who prices the instruments: per category a real provider when its API settings record has a key, the
  // simulated feed for the rest.
  const feeds = createFeedManager({
    db,
    config,
    book,
    instruments,
    realtime,
    isOpen,
    simulated,
    log: (msg) => log(msg),
  });
  const conversions = new ConversionGraph({
    book,
    instruments: () => instruments.list(),
    usdRates: () => feeds.usdRates(),
  });
  const createFeeds = (): FeedProvider => ({ id: 'feeds', start: () => feeds.start(), stop: () => feeds.stop() });

  /** What runs on every instance (price batches to this instance's clients, bars in progress) and what only the leader runs. */
  let listening: { detach: () => void } | null = null;
  let leading: { feed: FeedProvider; timers: NodeJS.Timeout[] } | null = null;
  const unlead = async () => {
    if (!leading) return;
    const { feed, timers } = leading;
    leading = null;
    await feed.stop();
    for (const t of timers) clearInterval(t);
    await quotes.stop();
  };
  const listen = () => {
    if (listening) return;
    // Listeners first, so the feed's first burst already reaches candles and clients.
    listening = { detach: aggregator.attach(book) };
    broadcaster.start();
  };

  return {
    book,
    instruments,
    status,
    isOpen,
    conversionRate: (quote, walletCurrency) => conversions.rate(quote, walletCurrency),
    knowsCurrency: (code) => conversions.knows(code),
    feeds,
    candles: (instrumentId, interval, limit) => aggregator.history(instrumentId, interval, limit),
    async start() {
      if (leading) return;
      const started = performance.now();
      try {
        const written = await ensureHistory(db, instruments.list(), Date.now(), config.FEED_SEED);
        if (written > 0)
          log(`market: generated ${written} candles of history in ${Math.round(performance.now() - started)} ms`);
      } catch (err) {
        // Charts without history are better than a market without prices.
        log('generating candle history failed', err);
      }
      listen();
      quotes.start();
      const feed = createFeeds();
      await feed.start();
      const flush = setInterval(
        () => void aggregator.flush().catch((err) => log('saving candles failed', err)),
        CANDLE_FLUSH_MS,
      );
      const prune = setInterval(
        () => void aggregator.prune(Date.now()).catch((err) => log('pruning candles failed', err)),
        CANDLE_PRUNE_MS,
      );
      for (const t of [flush, prune]) t.unref();
      leading = { feed, timers: [flush, prune] };
    },
    follow() {
      listen();
    },
    unlead,
    async stop() {
      const wasLeading = leading !== null;
      await unlead();
      if (listening) {
        broadcaster.stop();
        listening.detach();
        listening = null;
      }
      // Only the leader writes bars; a follower's bars in progress are the leader's to save.
      if (wasLeading) await aggregator.flush();
    },
  };
}
