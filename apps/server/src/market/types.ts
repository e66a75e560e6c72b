import type { Candle, CandleInterval, Category, MarketStatus } from '@platform/domain';
import type { PriceBook } from './price-book.ts';
import type { InstrumentRegistry } from './instruments.ts';
import type { FeedManager } from './feed-manager.ts';

/** The market as the rest of the server sees it (orders, risk engine, routes). */
export interface Market {
  readonly book: PriceBook;
  readonly instruments: InstrumentRegistry;
  /** Open or closed per market right now. */
  status(): MarketStatus;
  isOpen(category: Category): boolean;
  /**
   * Units of `quote` per one unit of `walletCurrency` (1 when equal): along the shortest chain of priced instruments
   * (a direct pair, else a cross rate such as EUR → USD → CNH), else through the USD rates of the currency API or the
   * simulated feed (HKD); null when nothing links the two.
   */
  conversionRate(quote: string, walletCurrency: string): number | null;
  /** True when some instrument is quoted in or based on `code`, or the currency API knows it. */
  knowsCurrency(code: string): boolean;
  /** The price providers behind the book (real adapters or the simulated feed): heartbeats, USD rates, reload. */
  readonly feeds?: FeedManager;
  /** The latest `limit` OHLC bars (bid prices) of an instrument, oldest first, including the bar in progress. */
  candles(instrumentId: number, interval: CandleInterval, limit: number): Promise<Candle[]>;
  /** Starts the feeds, candle aggregation and the realtime price batches (a sole instance, or the leader). */
  start(): Promise<void>;
  /**
   * Another instance leads: prices arrive from it (applied to the book by the caller) and only the realtime price
   * batches and the bars in progress run here. `start()` later takes over the feeds.
   */
  follow(): void;
  /** The leader is gone elsewhere: the feeds stop here, the batches go on with prices relayed from the new one. */
  unlead(): Promise<void>;
  stop(): Promise<void>;
}
