import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { candles } from '../db/schema.ts';
import { CandleAggregator, MINUTE_BARS_KEPT_MS } from './candles.ts';
import { ensureHistory, HISTORY_DAYS } from './candle-history.ts';
import type { Quote } from './price-book.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** Wednesday 9 July 2025, 15:20 UTC: every market open. */
const NOW = Date.UTC(2025, 6, 9, 15, 20);
const DAY = 86_400_000;

const idOf = (name: string) => t.ctx.market.instruments.byNameOf(name)!.id;
const bidOf = (name: string) => Number(t.ctx.market.instruments.byNameOf(name)!.bids);
const quote = (name: string, bid: number, time: number): Quote => ({
  name,
  bid,
  ask: bid + 0.0001,
  closeoutBid: bid,
  closeoutAsk: bid + 0.0001,
  time,
});

async function series(name: string, interval: string) {
  const rows = await t.ctx.db
    .select()
    .from(candles)
    .where(and(eq(candles.instrumentId, idOf(name)), eq(candles.interval, interval)))
    .orderBy(asc(candles.time));
  return rows.map((r) => ({
    start: r.time.getTime(),
    open: Number(r.open),
    high: Number(r.high),
    low: Number(r.low),
    close: Number(r.close),
  }));
}

describe('candle history', () => {
  it('fills a year of daily and a month of hourly bars for the whole universe, quickly, ending at the current price', async () => {
    const list = t.ctx.market.instruments.list();
    const started = performance.now();
    const written = await ensureHistory(t.ctx.db, list, NOW, 20261121);
    const ms = performance.now() - started;
    console.info(`history: ${written} bars for ${list.length} instruments in ${ms.toFixed(0)} ms`);
    expect(written).toBeGreaterThan(40_000);
    // About a second on PGlite alone; the bound only catches a return to row-by-row inserts (minutes), since a
    // busy machine running the suite in parallel can stretch the figure several times.
    expect(ms).toBeLessThan(15_000);

    for (const name of ['EUR_USD', 'AAPL_USD', 'BTC_USD', 'XAU_USD']) {
      const daily = await series(name, '1d');
      const hourly = await series(name, '1h');
      expect(daily.at(-1)!.close).toBe(bidOf(name));
      expect(hourly.at(-1)!.close).toBe(bidOf(name));
      expect(daily.at(-1)!.start).toBe(Math.floor(NOW / DAY) * DAY);
      expect(daily[0].start).toBeGreaterThanOrEqual(Math.floor(NOW / DAY) * DAY - (HISTORY_DAYS - 1) * DAY);
      for (const b of [...daily, ...hourly]) {
        expect(b.low).toBeGreaterThan(0);
        expect(b.high).toBeGreaterThanOrEqual(Math.max(b.open, b.close));
        expect(b.low).toBeLessThanOrEqual(Math.min(b.open, b.close));
      }
      // The hourly month and its daily bars agree.
      const lastDayHours = hourly.filter((h) => h.start >= daily.at(-2)!.start && h.start < daily.at(-1)!.start);
      expect(daily.at(-2)!.open).toBe(lastDayHours[0].open);
      expect(daily.at(-2)!.close).toBe(lastDayHours.at(-1)!.close);
      expect(daily.at(-2)!.high).toBe(Math.max(...lastDayHours.map((h) => h.high)));
    }

    const weekday = (start: number) => new Date(start).getUTCDay();
    const crypto = await series('BTC_USD', '1d');
    expect(crypto).toHaveLength(HISTORY_DAYS);
    expect((await series('BTC_USD', '1h')).length).toBe(29 * 24 + 16);
    // No bars while the market was closed: no Saturday for forex, no weekend and no 4 July for stocks.
    expect((await series('EUR_USD', '1d')).some((b) => weekday(b.start) === 6)).toBe(false);
    const stockDays = await series('AAPL_USD', '1d');
    expect(stockDays.some((b) => weekday(b.start) === 0 || weekday(b.start) === 6)).toBe(false);
    expect(stockDays.some((b) => b.start === Date.UTC(2025, 6, 4))).toBe(false);
    // NYSE hours in summer are 13:30-20:00 UTC: hourly bars from the 13:00 bar to the 19:00 bar.
    const stockHours = new Set((await series('AAPL_USD', '1h')).map((b) => new Date(b.start).getUTCHours()));
    expect([...stockHours].sort((a, b) => a - b)).toEqual([13, 14, 15, 16, 17, 18, 19]);
  });

  it('does nothing when the history exists', async () => {
    const started = performance.now();
    expect(await ensureHistory(t.ctx.db, t.ctx.market.instruments.list(), NOW + DAY, 1)).toBe(0);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('candle aggregator', () => {
  const minute = Date.UTC(2025, 6, 9, 15, 21);

  it('keeps the bar in progress in memory and answers history with it before any flush', async () => {
    const agg = new CandleAggregator(t.ctx.db, (n) => t.ctx.market.instruments.byNameOf(n)?.id);
    agg.record([quote('EUR_USD', 1.1, minute + 1_000), quote('UNKNOWN', 5, minute)]);
    agg.record([quote('EUR_USD', 1.102, minute + 20_000)]);
    agg.record([quote('EUR_USD', 1.099, minute + 40_000)]);
    agg.record([quote('EUR_USD', 1.1005, minute + 59_999)]);
    expect(await agg.history(idOf('EUR_USD'), '1m', 10)).toEqual([
      { time: minute / 1000, open: 1.1, high: 1.102, low: 1.099, close: 1.1005 },
    ]);
    // The daily bar of today merges onto the generated one: its open stays, the range widens, the close moves.
    const stored = (await series('EUR_USD', '1d')).at(-1)!;
    const today = (await agg.history(idOf('EUR_USD'), '1d', 500)).at(-1)!;
    expect(today).toEqual({
      time: stored.start / 1000,
      open: stored.open,
      high: Math.max(stored.high, 1.102),
      low: Math.min(stored.low, 1.099),
      close: 1.1005,
    });
    expect(await agg.history(idOf('EUR_USD'), '1d', 500)).toHaveLength((await series('EUR_USD', '1d')).length);
    expect(await agg.history(idOf('EUR_USD'), '1d', 3)).toHaveLength(3);
  });

  it('flushes changed bars, including finished ones, and a new process continues the same bars', async () => {
    const agg = new CandleAggregator(t.ctx.db, (n) => t.ctx.market.instruments.byNameOf(n)?.id);
    const next = minute + 60_000;
    agg.record([quote('GBP_USD', 1.3, minute + 5_000)]);
    agg.record([quote('GBP_USD', 1.31, next + 1_000)]);
    expect(await agg.flush()).toBe(4); // two minute bars, one hourly, one daily
    expect(await agg.flush()).toBe(0);
    expect(await series('GBP_USD', '1m')).toEqual([
      { start: minute, open: 1.3, high: 1.3, low: 1.3, close: 1.3 },
      { start: next, open: 1.31, high: 1.31, low: 1.31, close: 1.31 },
    ]);

    // After a restart the first tick of a stored bar must not replace its open, high or low.
    const restarted = new CandleAggregator(t.ctx.db, (n) => t.ctx.market.instruments.byNameOf(n)?.id);
    restarted.record([quote('GBP_USD', 1.305, next + 30_000)]);
    expect((await restarted.history(idOf('GBP_USD'), '1m', 5)).at(-1)).toEqual({
      time: next / 1000,
      open: 1.31,
      high: 1.31,
      low: 1.305,
      close: 1.305,
    });
    await restarted.flush();
    expect((await series('GBP_USD', '1m')).at(-1)).toEqual({
      start: next,
      open: 1.31,
      high: 1.31,
      low: 1.305,
      close: 1.305,
    });
  });

  it('ignores a late tick of a finished bar and prunes old minute bars only', async () => {
    const agg = new CandleAggregator(t.ctx.db, (n) => t.ctx.market.instruments.byNameOf(n)?.id);
    agg.record([quote('USD_CHF', 0.9, minute + 1_000)]);
    agg.record([quote('USD_CHF', 0.5, minute - 1_000)]);
    expect(await agg.history(idOf('USD_CHF'), '1m', 5)).toEqual([
      { time: minute / 1000, open: 0.9, high: 0.9, low: 0.9, close: 0.9 },
    ]);
    await agg.flush();

    const count = async (interval: string) =>
      (await t.ctx.db.select({ n: sql<number>`count(*)::int` }).from(candles).where(eq(candles.interval, interval)))[0]
        .n;
    const hourly = await count('1h');
    await agg.prune(minute + 60_000 + MINUTE_BARS_KEPT_MS);
    expect(await series('USD_CHF', '1m')).toEqual([]);
    expect((await series('GBP_USD', '1m')).map((b) => b.start)).toEqual([minute + 60_000]);
    expect(await count('1h')).toBe(hourly);
  });
});
