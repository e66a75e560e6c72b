import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import type { MarketStatus, PriceTick } from '@platform/domain';
import { createTestApp, signIn, DEMO, type TestApp } from '../../test/helpers.ts';
import { createMarketBroadcaster, type MarketBroadcaster } from './broadcast.ts';
import { PriceBook, type Quote } from './price-book.ts';

let t: TestApp;
let base: string;
let broadcaster: MarketBroadcaster;
let status: MarketStatus = { fx: 'open', stock: 'closed', crypto: 'open' };
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  t.ctx.realtime.attach(t.app.server, t.ctx.db);
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  // Timers far apart: the test sends batches and status checks itself, so what arrives is deterministic.
  broadcaster = createMarketBroadcaster({
    book: t.ctx.market.book,
    realtime: t.ctx.realtime,
    status: () => status,
    priceBatchMs: 60_000,
    statusCheckMs: 60_000,
  });
});
afterAll(async () => {
  broadcaster.stop();
  for (const s of sockets) s.disconnect();
  await t.ctx.realtime.close();
  await t.close();
});

/** A connected socket recording every event it receives from the moment it is created. */
async function socketWith(cookie?: string): Promise<{ socket: Socket; events: Array<[string, unknown]> }> {
  const socket = connect(base, {
    path: '/socket.io',
    transports: ['websocket'],
    forceNew: true,
    extraHeaders: cookie ? { cookie } : {},
  });
  sockets.push(socket);
  const events: Array<[string, unknown]> = [];
  socket.onAny((event: string, payload: unknown) => events.push([event, payload]));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return { socket, events };
}

const until = async (check: () => boolean, ms = 2_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};
const settle = () => new Promise((r) => setTimeout(r, 150));
const quote = (name: string, bid: number, time = Date.now()): Quote => ({
  name,
  bid,
  ask: bid + 0.0002,
  closeoutBid: bid - 0.0001,
  closeoutAsk: bid + 0.0003,
  time,
});

describe('market broadcast over Socket.IO', () => {
  it('sends the current market status, and nothing else, to a newly connected socket', async () => {
    const anonymous = await socketWith();
    const client = await socketWith(await signIn(t.app, DEMO.client, undefined, '127.0.0.1'));
    for (const s of [anonymous, client]) {
      await until(() => s.events.length > 0);
      await settle();
      // The app's market is pinned open in tests; the connect hook reports the app's own status.
      expect(s.events).toEqual([
        ['marketStatus', { fx: 'open', stock: 'open', crypto: 'open', nextOpen: { fx: null, stock: null } }],
      ]);
    }
  });

  it('batches a burst of ticks into one priceUpdate per client with the latest quote of each changed name', async () => {
    broadcaster.start();
    const a = await socketWith();
    const b = await socketWith();
    await until(() => a.events.length > 0 && b.events.length > 0);
    await settle();
    a.events.length = 0;
    b.events.length = 0;

    const book = t.ctx.market.book;
    book.apply([quote('EUR_USD', 1.1), quote('GBP_USD', 1.3), quote('USD_JPY', 150.1)]);
    book.apply([quote('EUR_USD', 1.1001), quote('BTC_USD', 90_000)]);
    book.apply([quote('EUR_USD', 1.1002, 1_700_000_000_123)]);
    broadcaster.flushPrices();
    await until(() => a.events.length > 0 && b.events.length > 0);
    await settle();

    for (const s of [a, b]) {
      expect(s.events).toHaveLength(1);
      const [event, ticks] = s.events[0] as [string, PriceTick[]];
      expect(event).toBe('priceUpdate');
      expect(ticks.map((x) => x.name).sort()).toEqual(['BTC_USD', 'EUR_USD', 'GBP_USD', 'USD_JPY']);
      expect(ticks.find((x) => x.name === 'EUR_USD')).toEqual({
        name: 'EUR_USD',
        bids: 1.1002,
        asks: 1.1004,
        closeoutBid: 1.1001,
        closeoutAsk: 1.1005,
        time: 1_700_000_000_123,
      });
    }

    // Nothing changed since: no empty batch goes out.
    broadcaster.flushPrices();
    await settle();
    expect(a.events).toHaveLength(1);
  });

  it('broadcasts the market status once when it changes, not on every check', async () => {
    const s = await socketWith();
    await until(() => s.events.length > 0);
    await settle();
    s.events.length = 0;
    broadcaster.checkStatus();
    await settle();
    expect(s.events).toEqual([]);

    status = { fx: 'closed', stock: 'closed', crypto: 'open' };
    broadcaster.checkStatus();
    broadcaster.checkStatus();
    await until(() => s.events.length > 0);
    await settle();
    expect(s.events).toEqual([['marketStatus', { fx: 'closed', stock: 'closed', crypto: 'open' }]]);
  });

  it('sends the status at start and stops sending prices after stop()', async () => {
    broadcaster.stop();
    const s = await socketWith();
    await until(() => s.events.length > 0);
    s.events.length = 0;
    broadcaster.start();
    await until(() => s.events.length > 0);
    expect(s.events).toEqual([['marketStatus', status]]);
    broadcaster.stop();
    s.events.length = 0;
    t.ctx.market.book.apply([quote('EUR_USD', 1.2)]);
    broadcaster.flushPrices();
    await settle();
    expect(s.events).toEqual([]);
  });
});

describe('price batching', () => {
  it('sends the first tick after a quiet spell at once, then at most one batch per interval', async () => {
    const book = new PriceBook();
    const sent: Array<{ at: number; names: string[] }> = [];
    const b = createMarketBroadcaster({
      book,
      realtime: {
        broadcast: (event, payload) =>
          void (
            event === 'priceUpdate' &&
            sent.push({ at: performance.now(), names: (payload as PriceTick[]).map((x) => x.name) })
          ),
      },
      status: () => status,
      priceBatchMs: 200,
      statusCheckMs: 60_000,
    });
    b.start();
    const t0 = performance.now();
    book.apply([quote('EUR_USD', 1.1)]);
    book.apply([quote('GBP_USD', 1.3)]);
    await until(() => sent.length === 1);
    expect(sent[0].at - t0).toBeLessThan(100);
    expect(sent[0].names.sort()).toEqual(['EUR_USD', 'GBP_USD']);

    book.apply([quote('EUR_USD', 1.101)]);
    await new Promise((r) => setTimeout(r, 50));
    book.apply([quote('USD_JPY', 150)]);
    await until(() => sent.length === 2);
    // One interval after the first batch, whose interval starts at or after the first tick (t0): measured from t0, since
    // a busy machine can record the first send tens of milliseconds after its interval began. A second batch with no
    // wait at all would come ~50 ms after the first tick. 20 ms of slack: a timer counts from the event loop's cached
    // clock, which a long turn of the loop leaves behind.
    expect(sent[1].at - t0).toBeGreaterThanOrEqual(180);
    expect(sent[1].names.sort()).toEqual(['EUR_USD', 'USD_JPY']);
    b.stop();
  });

  it('offers a client that skipped batches every instrument’s latest price in place of the next one', () => {
    const book = new PriceBook();
    book.prime([quote('EUR_USD', 1.1, 1), quote('GBP_USD', 1.3, 2)]);
    const catchUps: Array<() => unknown> = [];
    const b = createMarketBroadcaster({
      book,
      realtime: {
        broadcast: (event, _payload, opts) =>
          void (event === 'priceUpdate' && opts?.catchUp && catchUps.push(opts.catchUp)),
      },
      status: () => status,
      priceBatchMs: 60_000,
      statusCheckMs: 60_000,
    });
    b.start();
    book.apply([quote('EUR_USD', 1.2, 3)]);
    b.flushPrices();
    b.stop();
    expect(catchUps).toHaveLength(1);
    expect(catchUps[0]()).toEqual([
      { name: 'EUR_USD', bids: 1.2, asks: 1.2002, closeoutBid: 1.1999, closeoutAsk: 1.2003, time: 3 },
      { name: 'GBP_USD', bids: 1.3, asks: 1.3002, closeoutBid: 1.2999, closeoutAsk: 1.3003, time: 2 },
    ]);
  });
});
