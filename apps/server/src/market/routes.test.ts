import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES, type Candle, type InstrumentDto } from '@platform/domain';
import { createTestApp, signIn, DEMO, type TestApp } from '../../test/helpers.ts';
import { ensureHistory } from './candle-history.ts';

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp();
  cookie = await signIn(t.app, DEMO.client);
  await ensureHistory(t.ctx.db, t.ctx.market.instruments.list(), Date.now(), 7);
});
afterAll(async () => t.close());

const get = (url: string, withCookie = true) =>
  t.app.inject({ method: 'GET', url, headers: withCookie ? { cookie } : {} });

describe('GET /api/dashboard/instruments', () => {
  it('refuses anonymous callers', async () => {
    expect((await get('/api/dashboard/instruments', false)).statusCode).toBe(401);
  });

  it('lists every instrument of every category with its current quote', async () => {
    t.ctx.market.book.apply([
      { name: 'EUR_USD', bid: 1.1, ask: 1.10008, closeoutBid: 1.09999, closeoutAsk: 1.10009, time: Date.now() },
    ]);
    const res = await get('/api/dashboard/instruments');
    expect(res.statusCode).toBe(200);
    const list: InstrumentDto[] = res.json();
    expect(list).toHaveLength(t.ctx.market.instruments.list().length);
    expect(new Set(list.map((i) => i.category))).toEqual(new Set(CATEGORIES));
    expect(list.find((i) => i.name === 'EUR_USD')).toMatchObject({
      base: 'EUR',
      quote: 'USD',
      category: 'forex',
      tradable: true,
      digits: 5,
      swap: '0',
      bids: 1.1,
      asks: 1.10008,
      closeoutBid: 1.09999,
      closeoutAsk: 1.10009,
    });
    for (const i of list) expect(i.asks).toBeGreaterThan(i.bids!);
  });
});

describe('GET /api/dashboard/market-status', () => {
  it('refuses anonymous callers and answers the market status', async () => {
    expect((await get('/api/dashboard/market-status', false)).statusCode).toBe(401);
    const res = await get('/api/dashboard/market-status');
    expect(res.statusCode).toBe(200);
    // Test apps pin the markets open (MARKET_HOURS=open).
    expect(res.json()).toEqual({ fx: 'open', stock: 'open', crypto: 'open', nextOpen: { fx: null, stock: null } });
  });
});

describe('GET /api/market/candles', () => {
  it('refuses anonymous callers', async () => {
    expect((await get('/api/market/candles?symbol=EUR_USD', false)).statusCode).toBe(401);
  });

  it('answers daily bars oldest first in Unix seconds, 500 by default', async () => {
    const res = await get('/api/market/candles?symbol=BTC_USD');
    expect(res.statusCode).toBe(200);
    const bars: Candle[] = res.json();
    expect(bars).toHaveLength(365);
    const times = bars.map((b) => b.time);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times.every((s) => s % 86_400 === 0)).toBe(true);
    expect(times.at(-1)! * 1000).toBe(Math.floor(Date.now() / 86_400_000) * 86_400_000);
    expect(bars.at(-1)!.close).toBe(Number(t.ctx.market.instruments.byNameOf('BTC_USD')!.bids));
  });

  it('honours interval and limit, and accepts the chart symbol spelling', async () => {
    const res = await get('/api/market/candles?symbol=USD/CNH&interval=1h&limit=24');
    expect(res.statusCode).toBe(200);
    const bars: Candle[] = res.json();
    expect(bars.length).toBeLessThanOrEqual(24);
    expect(bars.length).toBeGreaterThan(0);
    expect(bars.every((b) => b.time % 3600 === 0)).toBe(true);
    expect((await get('/api/market/candles?symbol=EUR_USD&interval=1m')).json()).toEqual([]);
  });

  it('builds 4-hour bars from the hourly ones (and 5 and 15 minutes from minute bars)', async () => {
    const hourly: Candle[] = (await get('/api/market/candles?symbol=EUR_USD&interval=1h&limit=48')).json();
    const four: Candle[] = (await get('/api/market/candles?symbol=EUR_USD&interval=4h&limit=12')).json();
    expect(four.length).toBeGreaterThan(0);
    expect(four.every((b) => b.time % 14_400 === 0)).toBe(true);
    const last = four.at(-1)!;
    const inside = hourly.filter((h) => h.time >= last.time);
    expect(last.open).toBe(inside[0].open);
    expect(last.close).toBe(inside.at(-1)!.close);
    expect(last.high).toBe(Math.max(...inside.map((h) => h.high)));
    expect(last.low).toBe(Math.min(...inside.map((h) => h.low)));
    expect((await get('/api/market/candles?symbol=EUR_USD&interval=15m')).statusCode).toBe(200);
  });

  it('builds weekly (from Monday) and monthly bars from the daily ones', async () => {
    const daily: Candle[] = (await get('/api/market/candles?symbol=BTC_USD&interval=1d&limit=400')).json();
    const weeks: Candle[] = (await get('/api/market/candles?symbol=BTC_USD&interval=1w')).json();
    const months: Candle[] = (await get('/api/market/candles?symbol=BTC_USD&interval=1mo&limit=6')).json();
    // A year of daily bars: 53 or 54 weeks (Monday to Sunday), and the last six months.
    expect(weeks.length).toBeGreaterThanOrEqual(53);
    expect(weeks.every((w) => new Date(w.time * 1000).getUTCDay() === 1 && w.time % 86_400 === 0)).toBe(true);
    expect(months).toHaveLength(6);
    expect(months.every((m) => new Date(m.time * 1000).getUTCDate() === 1)).toBe(true);
    for (const [bar, length] of [
      [weeks.at(-2)!, 7 * 86_400],
      [months.at(-2)!, months.at(-1)!.time - months.at(-2)!.time],
    ] as const) {
      const inside = daily.filter((d) => d.time >= bar.time && d.time < bar.time + length);
      expect(bar.open).toBe(inside[0].open);
      expect(bar.close).toBe(inside.at(-1)!.close);
      expect(bar.high).toBe(Math.max(...inside.map((d) => d.high)));
      expect(bar.low).toBe(Math.min(...inside.map((d) => d.low)));
    }
    expect(weeks.at(-1)!.close).toBe(daily.at(-1)!.close);
  });

  it('answers 404 for an unknown symbol and 400 for bad input', async () => {
    const unknown = await get('/api/market/candles?symbol=NOPE_USD');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Instrument not found.' });
    for (const q of [
      'symbol=EUR_USD&interval=2h',
      'symbol=EUR_USD&limit=0',
      'symbol=EUR_USD&limit=5000',
      'symbol=EUR_USD&limit=abc',
      'interval=1d',
      'symbol=',
    ]) {
      const res = await get(`/api/market/candles?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().message, q).toBeTruthy();
    }
  });
});
