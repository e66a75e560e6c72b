import { describe, expect, it } from 'vitest';
import type { Category, CategoryName } from '@platform/domain';
import { UNIVERSE } from '../db/seed/instruments.ts';
import type { InstrumentRow } from './instruments.ts';
import { PriceBook, type Quote } from './price-book.ts';
import { createSimulatedFeed } from './simulated-feed.ts';

/** The seeded universe as the registry holds it after seeding. */
const ROWS: InstrumentRow[] = Object.entries(UNIVERSE).flatMap(([category, rows]) =>
  rows.map(([name, base, quote, alias, tradingview, digits, mid, spread], i) => ({
    id: i + 1,
    name,
    base,
    quote,
    alias,
    tradingview,
    digits,
    category: category as CategoryName,
    leverage: 100,
    tradable: true,
    swap: '0',
    swapLong: '0',
    swapShort: '0',
    contractSize: null,
    createdAt: new Date(0),
    bids: (mid - spread / 2).toFixed(digits),
    asks: (mid + spread / 2).toFixed(digits),
  })),
);
const byName = new Map(ROWS.map((r) => [r.name, r]));
const seededSpread = new Map(
  Object.values(UNIVERSE)
    .flat()
    .map((r) => [r[0], r[7]]),
);

function run(seed: number, bursts: number, isOpen: (c: Category) => boolean = () => true) {
  const book = new PriceBook();
  const batches: Quote[][] = [];
  book.onTicks((changed) => batches.push([...changed]));
  const feed = createSimulatedFeed({
    book,
    instruments: () => ROWS,
    isOpen,
    seed,
    tickMs: 250,
    now: () => 1_700_000_000_000,
  });
  for (let i = 0; i < bursts; i++) feed.burst();
  return { book, batches };
}

const decimals = (n: number) => (n.toString().split('.')[1] ?? '').length;

describe('simulated feed', () => {
  it('replays the same prices for the same seed and different ones for another', () => {
    const a = run(42, 200);
    const b = run(42, 200);
    const c = run(43, 200);
    expect(a.book.all()).toEqual(b.book.all());
    expect(a.batches).toEqual(b.batches);
    expect(c.book.all()).not.toEqual(a.book.all());
  });

  it('moves a random part of the universe per burst, in one book update', () => {
    const { batches } = run(7, 40);
    expect(batches).toHaveLength(40);
    const sizes = batches.map((b) => b.length);
    expect(Math.min(...sizes)).toBeGreaterThan(5);
    expect(Math.max(...sizes)).toBeLessThan(ROWS.length);
    // At 4 bursts a second that is dozens of ticks per second across the universe.
    expect(sizes.reduce((s, n) => s + n, 0) / 10).toBeGreaterThan(40);
  });

  it('keeps prices positive, rounded to the digits, with a spread and wider closeout prices', () => {
    const { batches } = run(11, 400);
    for (const q of batches.flat()) {
      const row = byName.get(q.name)!;
      expect(q.bid).toBeGreaterThan(0);
      expect(q.ask).toBeGreaterThan(q.bid);
      expect(q.closeoutBid).toBeLessThan(q.bid);
      expect(q.closeoutBid).toBeGreaterThan(0);
      expect(q.closeoutAsk).toBeGreaterThan(q.ask);
      for (const v of [q.bid, q.ask, q.closeoutBid, q.closeoutAsk]) expect(decimals(v)).toBeLessThanOrEqual(row.digits);
      // Spread from the instrument's typical one to a quarter wider (give or take rounding to one unit).
      const typical = seededSpread.get(q.name)!;
      const unit = 10 ** -row.digits;
      expect(q.ask - q.bid).toBeGreaterThanOrEqual(typical - unit / 2 - 1e-9);
      expect(q.ask - q.bid).toBeLessThanOrEqual(typical * 1.25 + unit / 2 + 1e-9);
    }
  });

  it('moves EUR/USD visibly but not wildly: a few pips over a minute, near its start after an hour', () => {
    const { book } = run(5, 240);
    const start = 1.0852;
    const minute = book.get('EUR_USD')!;
    expect(Math.abs(minute.bid - start)).toBeLessThan(0.005);
    const hour = run(5, 4 * 3600).book.get('EUR_USD')!;
    expect(Math.abs(hour.bid / start - 1)).toBeLessThan(0.03);
    expect(hour.bid).not.toBe(minute.bid);
  });

  it('leaves instruments of closed markets frozen', () => {
    const { book, batches } = run(3, 100, (c) => c === 'crypto');
    const moved = new Set(batches.flat().map((q) => q.name));
    expect([...moved].every((n) => byName.get(n)!.category === 'crypto')).toBe(true);
    expect(moved.size).toBe(UNIVERSE.crypto.length);
    expect(book.get('EUR_USD')).toBeUndefined();
  });

  it('continues from the price in the book and reads the instrument list at every burst', () => {
    const book = new PriceBook();
    book.prime([{ name: 'EUR_USD', bid: 1.2, ask: 1.20008, closeoutBid: 1.2, closeoutAsk: 1.20008, time: 0 }]);
    let list: InstrumentRow[] = [byName.get('EUR_USD')!];
    const feed = createSimulatedFeed({ book, instruments: () => list, isOpen: () => true, seed: 1, tickMs: 250 });
    for (let i = 0; i < 20; i++) feed.burst();
    expect(Math.abs(book.get('EUR_USD')!.bid - 1.2)).toBeLessThan(0.002);
    expect(book.get('BTC_USD')).toBeUndefined();
    list = [byName.get('BTC_USD')!];
    const eur = book.get('EUR_USD');
    for (let i = 0; i < 20; i++) feed.burst();
    expect(book.get('EUR_USD')).toBe(eur);
    expect(book.get('BTC_USD')!.bid).toBeGreaterThan(80_000);
  });

  it('keeps bursting on its timer until stopped, even when a listener throws', async () => {
    const book = new PriceBook();
    const errors: unknown[] = [];
    let bursts = 0;
    book.onTicks(() => {
      bursts++;
      throw new Error('listener failure');
    });
    const feed = createSimulatedFeed({
      book,
      instruments: () => ROWS,
      isOpen: () => true,
      seed: 9,
      tickMs: 20,
      onError: (e) => errors.push(e),
    });
    await feed.start();
    await new Promise((r) => setTimeout(r, 150));
    await feed.stop();
    const seen = bursts;
    expect(seen).toBeGreaterThanOrEqual(3);
    expect(errors).toHaveLength(seen);
    await new Promise((r) => setTimeout(r, 60));
    expect(bursts).toBe(seen);
  });
});
