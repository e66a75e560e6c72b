import { and, desc, eq, lt, sql } from 'drizzle-orm';
import { CANDLE_INTERVALS, type Candle, type CandleInterval } from '@platform/domain';
import type { DbOrTx } from '../db/client.ts';
import { candles, instruments } from '../db/schema.ts';
import type { PriceBook, Quote } from './price-book.ts';

export const INTERVAL_MS: Record<CandleInterval, number> = { '1m': 60_000, '1h': 3_600_000, '1d': 86_400_000 };
/** Minute bars are for the intraday chart only; older ones are pruned so the table does not grow without bound. */
export const MINUTE_BARS_KEPT_MS = 7 * 86_400_000;
/** Rows per INSERT: well under PostgreSQL's statement limits and small enough for PGlite's memory. */
const BATCH = 5_000;

/** UTC bucket start of an instant (epoch days start at UTC midnight, so days align too). */
export const bucketOf = (time: number, interval: CandleInterval): number =>
  Math.floor(time / INTERVAL_MS[interval]) * INTERVAL_MS[interval];

export interface Bar {
  instrumentId: number;
  interval: CandleInterval;
  /** Bucket start, milliseconds since the epoch. */
  start: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

/** A PostgreSQL array literal of plain tokens (numbers, ISO times, interval names: nothing needs quoting). */
const arrayLiteral = (values: readonly (string | number)[]): string => `{${values.join(',')}}`;

/**
 * Writes bars in batches of one statement each. Columns travel as seven array parameters and are unnested in the
 * database, so a batch costs one round trip and no per-row SQL building. `merge` combines a bar with a stored one
 * of the same bucket: the stored open stays (it is the earlier one), the range widens, the close is the newest;
 * without it existing bars are left alone.
 */
export async function writeBars(db: DbOrTx, bars: readonly Bar[], mode: 'merge' | 'insert-missing'): Promise<void> {
  for (let i = 0; i < bars.length; i += BATCH) {
    const chunk = bars.slice(i, i + BATCH);
    const conflict =
      mode === 'merge'
        ? sql`do update set high = greatest(${candles}.high, excluded.high), low = least(${candles}.low, excluded.low), close = excluded.close`
        : sql`do nothing`;
    await db.execute(sql`
      insert into ${candles} (instrument_id, interval, time, open, high, low, close)
      select v.* from unnest(
        ${arrayLiteral(chunk.map((b) => b.instrumentId))}::integer[],
        ${arrayLiteral(chunk.map((b) => b.interval))}::varchar[],
        ${arrayLiteral(chunk.map((b) => new Date(b.start).toISOString()))}::timestamptz[],
        ${arrayLiteral(chunk.map((b) => b.open))}::numeric[],
        ${arrayLiteral(chunk.map((b) => b.high))}::numeric[],
        ${arrayLiteral(chunk.map((b) => b.low))}::numeric[],
        ${arrayLiteral(chunk.map((b) => b.close))}::numeric[]
      ) as v(instrument_id, interval, time, open, high, low, close)
      -- Bars of an instrument staff deleted meanwhile are dropped, so they cannot fail (and hold up) every later flush.
      where exists (select 1 from ${instruments} i where i.id = v.instrument_id)
      on conflict (instrument_id, interval, time) ${conflict}`);
  }
}

/**
 * Builds OHLC bars from the price book's ticks (bid prices, as the chart shows sell prices). The bar in progress
 * per instrument and interval lives in memory; flush() merges changed bars into the candles table, and history()
 * answers from the table plus what is not flushed yet, so a chart is current to the last tick.
 */
export class CandleAggregator {
  private readonly current = new Map<string, Bar>();
  /** Bars changed since the last flush, by instrument, interval and bucket (a rotated bar waits here too). */
  private dirty = new Map<string, Bar>();
  private flushing: Promise<number> | null = null;

  constructor(
    private readonly db: DbOrTx,
    /** Instrument id of a quote's name; ticks of unknown names are ignored. */
    private readonly idOf: (name: string) => number | undefined,
  ) {}

  /** Subscribes to the book; returns the unsubscribe function. */
  attach(book: PriceBook): () => void {
    return book.onTicks((quotes) => this.record(quotes));
  }

  record(quotes: readonly Quote[]): void {
    for (const q of quotes) {
      const id = this.idOf(q.name);
      if (id === undefined) continue;
      for (const interval of CANDLE_INTERVALS) this.add(id, interval, q.time, q.bid);
    }
  }

  private add(instrumentId: number, interval: CandleInterval, time: number, price: number): void {
    const key = `${instrumentId}:${interval}`;
    const start = bucketOf(time, interval);
    let bar = this.current.get(key);
    if (bar && start < bar.start) return; // a late tick of a finished bar: the bar has moved on
    if (!bar || start > bar.start) {
      bar = { instrumentId, interval, start, open: price, high: price, low: price, close: price };
      this.current.set(key, bar);
    } else {
      if (price > bar.high) bar.high = price;
      if (price < bar.low) bar.low = price;
      bar.close = price;
    }
    this.dirty.set(`${key}:${start}`, bar);
  }

  /** Writes the changed bars in one statement per batch; returns how many. Concurrent calls run one after another. */
  async flush(): Promise<number> {
    while (this.flushing !== null) await this.flushing;
    this.flushing = this.flushOnce();
    try {
      return await this.flushing;
    } finally {
      this.flushing = null;
    }
  }

  private async flushOnce(): Promise<number> {
    if (this.dirty.size === 0) return 0;
    const pending = this.dirty;
    this.dirty = new Map();
    // Copies: ticks arriving during the write keep changing the live bars and mark them dirty again.
    const rows = [...pending.values()].map((b) => ({ ...b }));
    try {
      await writeBars(this.db, rows, 'merge');
    } catch (err) {
      for (const [k, b] of pending) if (!this.dirty.has(k)) this.dirty.set(k, b);
      throw err;
    }
    return rows.length;
  }

  /** Deletes minute bars older than the retention; hourly and daily bars are kept. */
  async prune(now: number): Promise<void> {
    await this.db
      .delete(candles)
      .where(and(eq(candles.interval, '1m'), lt(candles.time, new Date(now - MINUTE_BARS_KEPT_MS))));
  }

  /** The latest `limit` bars, oldest first, including the bar in progress. */
  async history(instrumentId: number, interval: CandleInterval, limit: number): Promise<Candle[]> {
    const stored = await this.db
      .select({ time: candles.time, open: candles.open, high: candles.high, low: candles.low, close: candles.close })
      .from(candles)
      .where(and(eq(candles.instrumentId, instrumentId), eq(candles.interval, interval)))
      .orderBy(desc(candles.time))
      .limit(limit);
    const byStart = new Map<number, Candle>();
    for (let i = stored.length - 1; i >= 0; i--) {
      const r = stored[i];
      const start = r.time.getTime();
      byStart.set(start, {
        time: start / 1000,
        open: Number(r.open),
        high: Number(r.high),
        low: Number(r.low),
        close: Number(r.close),
      });
    }
    for (const bar of this.unflushed(instrumentId, interval)) {
      const row = byStart.get(bar.start);
      byStart.set(
        bar.start,
        row
          ? {
              time: row.time,
              open: row.open,
              high: Math.max(row.high, bar.high),
              low: Math.min(row.low, bar.low),
              close: bar.close,
            }
          : { time: bar.start / 1000, open: bar.open, high: bar.high, low: bar.low, close: bar.close },
      );
    }
    return [...byStart.entries()]
      .sort((a, b) => a[0] - b[0])
      .slice(-limit)
      .map(([, c]) => c);
  }

  /** Bars of one series held in memory: waiting to be flushed, plus the one in progress. */
  private unflushed(instrumentId: number, interval: CandleInterval): Bar[] {
    const key = `${instrumentId}:${interval}`;
    const bars = [...this.dirty.entries()].filter(([k]) => k.startsWith(`${key}:`)).map(([, b]) => b);
    const live = this.current.get(key);
    if (live && !bars.includes(live)) bars.push(live);
    return bars;
  }
}
