import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { candles, instruments } from '../db/schema.ts';
import { createMarket } from './index.ts';
import { createQuoteStore } from './quote-store.ts';
import { PriceBook } from './price-book.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ FEED_TICK_MS: '20' });
});
afterAll(async () => t.close());

const stored = async (name: string) =>
  (
    await t.ctx.db
      .select({ bids: instruments.bids, asks: instruments.asks })
      .from(instruments)
      .where(eq(instruments.name, name))
  )[0];

describe('quote store', () => {
  it('saves the latest quote of each changed instrument at its digits, in one go', async () => {
    const book = new PriceBook();
    const digits = new Map([
      ['EUR_USD', 5],
      ['USD_JPY', 3],
    ]);
    const store = createQuoteStore({ db: t.ctx.db, book, digitsOf: (n) => digits.get(n), everyMs: 60_000 });
    store.start();
    book.apply([{ name: 'EUR_USD', bid: 1.1, ask: 1.10008, closeoutBid: 1.1, closeoutAsk: 1.10008, time: 1 }]);
    book.apply([{ name: 'EUR_USD', bid: 1.10001, ask: 1.10009, closeoutBid: 1.1, closeoutAsk: 1.1001, time: 2 }]);
    book.apply([{ name: 'USD_JPY', bid: 150.1, ask: 150.112, closeoutBid: 150.1, closeoutAsk: 150.112, time: 2 }]);
    book.apply([{ name: 'NOT_LISTED', bid: 1, ask: 2, closeoutBid: 1, closeoutAsk: 2, time: 2 }]);
    expect(await store.save()).toBe(2);
    expect(await stored('EUR_USD')).toEqual({ bids: '1.10001000', asks: '1.10009000' });
    expect(await stored('USD_JPY')).toEqual({ bids: '150.10000000', asks: '150.11200000' });
    expect(await store.save()).toBe(0);
    book.apply([{ name: 'EUR_USD', bid: 1.2, ask: 1.20008, closeoutBid: 1.2, closeoutAsk: 1.20008, time: 3 }]);
    await store.stop();
    expect((await stored('EUR_USD')).bids).toBe('1.20000000');
  });
});

describe('market lifecycle', () => {
  it('start() fills history, prices, aggregates candles; stop() saves them, and a new market resumes from there', async () => {
    const market = t.ctx.market;
    const before = market.book.get('EUR_USD')!;
    await market.start();
    await market.start(); // a second start is a no-op
    const count = async (interval: string) =>
      (await t.ctx.db.select({ n: sql<number>`count(*)::int` }).from(candles).where(eq(candles.interval, interval)))[0]
        .n;
    expect(await count('1d')).toBeGreaterThan(10_000);

    const end = Date.now() + 5_000;
    while (market.book.get('EUR_USD') === before && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 200));
    await market.stop();
    await market.stop();
    const last = market.book.get('EUR_USD')!;
    expect(last).not.toBe(before);
    // The bars in progress were flushed, and the last prices saved.
    expect(await count('1m')).toBeGreaterThan(0);
    const id = market.instruments.byNameOf('EUR_USD')!.id;
    const minute = await market.candles(id, '1m', 1);
    expect(minute.at(-1)!.close).toBe(last.bid);
    expect(Number((await stored('EUR_USD')).bids)).toBe(last.bid);

    const afterStop = market.book.get('EUR_USD');
    await new Promise((r) => setTimeout(r, 100));
    expect(market.book.get('EUR_USD')).toBe(afterStop);

    const next = await createMarket({ config: t.ctx.config, db: t.ctx.db, realtime: t.ctx.realtime });
    expect(next.book.get('EUR_USD')).toMatchObject({ bid: last.bid, ask: last.ask });
  });
});
