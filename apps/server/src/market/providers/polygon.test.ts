import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Heartbeat } from '@platform/domain';
import { PriceBook } from '../price-book.ts';
import type { FeedProvider } from '../feed-provider.ts';
import { createPolygonFeed, type PolygonMarket } from './polygon.ts';
import { FakePolygon } from '../../../test/fakes/polygon.ts';
import { instrumentRow } from '../../../test/fakes/instruments.ts';
import { sleep, waitFor } from '../../../test/fakes/wait.ts';

const KEY = 'poly-good-key';
const FOREX = [instrumentRow('EUR_USD', 'forex', 5), instrumentRow('USD_JPY', 'forex', 3)];
const CRYPTO = [instrumentRow('BTC_USD', 'crypto', 2), instrumentRow('DOGE_USD', 'crypto', 5)];
const timing = { minRetryMs: 50, maxRetryMs: 200, authRetryMs: 60_000, stallMs: 2000 };

let fake: FakePolygon;
let feed: FeedProvider | null = null;
beforeAll(async () => {
  fake = await FakePolygon.start(KEY);
});
afterEach(async () => {
  await feed?.stop();
  feed = null;
});
afterAll(async () => fake.close());

function start(market: PolygonMarket, apiKey = KEY) {
  const book = new PriceBook();
  const beats: Heartbeat[] = [];
  feed = createPolygonFeed({
    market,
    apiKey,
    baseUrl: fake.url,
    sink: book,
    instruments: () => (market === 'forex' ? FOREX : CRYPTO),
    onHeartbeat: (b) => beats.push(b),
    timing,
  });
  void feed.start();
  return { book, beats };
}

describe('Polygon forex', () => {
  it('authenticates, subscribes to C.{base}/{quote} and writes rounded quotes under our names', async () => {
    const { book, beats } = start('forex');
    await waitFor('subscription', () => fake.subscriptions.forex.length === 1);
    expect(fake.subscriptions.forex[0]).toBe('C.EUR/USD,C.USD/JPY');
    expect(beats.at(-1)).toMatchObject({ api: 'polygonForex', success: true });

    fake.push('forex', [
      { ev: 'C', p: 'EUR/USD', x: 48, a: 1.0853149, b: 1.0852049, t: 1736157600123 },
      { ev: 'C', p: 'USD/JPY', x: 48, a: 151.2216, b: 151.2094, t: 1736157600456 },
      { ev: 'C', p: 'GBP/USD', x: 48, a: 1.27, b: 1.26, t: 1736157600456 },
    ]);
    await waitFor('quotes', () => book.get('USD_JPY'));
    expect(book.get('EUR_USD')).toEqual({
      name: 'EUR_USD',
      bid: 1.0852,
      ask: 1.08531,
      closeoutBid: 1.0852,
      closeoutAsk: 1.08531,
      time: 1736157600123,
    });
    expect(book.get('USD_JPY')).toMatchObject({ bid: 151.209, ask: 151.222, time: 1736157600456 });
    expect(book.all()).toHaveLength(2);
  });

  it('reports the provider message on a refused key, gets no quotes and does not hammer the provider', async () => {
    const before = fake.auths.length;
    const { book, beats } = start('forex', 'wrong-key');
    await waitFor('failure heartbeat', () => beats.find((b) => !b.success));
    expect(beats).toEqual([{ api: 'polygonForex', success: false, msg: 'authentication failed' }]);
    await sleep(300); // several minRetryMs: a refused key waits authRetryMs instead
    expect(fake.auths.length - before).toBe(1);
    expect(book.all()).toHaveLength(0);
  });

  it('reconnects after the connection drops and quotes resume', async () => {
    const { book, beats } = start('forex');
    await waitFor('first session', () => fake.authed('forex') === 1);
    fake.dropAll();
    await waitFor('disconnect heartbeat', () => beats.find((b) => !b.success));
    expect(beats.find((b) => !b.success)?.msg).toMatch(/^Disconnected \(.+\); reconnecting in/);
    await waitFor('second session', () => fake.authed('forex') === 1 && beats.at(-1)?.success);
    fake.push('forex', [{ ev: 'C', p: 'EUR/USD', a: 1.1002, b: 1.1, t: 1736157700000 }]);
    await waitFor('quote after reconnect', () => book.get('EUR_USD'));
    expect(book.get('EUR_USD')).toMatchObject({ bid: 1.1, ask: 1.1002 });
  });
});

describe('Polygon crypto', () => {
  it('subscribes to XQ.{base}-{quote} and maps XQ events back to our names', async () => {
    const { book, beats } = start('crypto');
    await waitFor('subscription', () => fake.subscriptions.crypto.length === 1);
    expect(fake.subscriptions.crypto[0]).toBe('XQ.BTC-USD,XQ.DOGE-USD');
    expect(beats.at(-1)).toMatchObject({ api: 'polygonCrypto', success: true });
    fake.push('crypto', [
      {
        ev: 'XQ',
        pair: 'BTC-USD',
        bp: 91250.123,
        bs: 0.5,
        ap: 91262.456,
        as: 0.3,
        t: 1736157600789,
        x: 1,
        r: 1736157600800,
      },
      {
        ev: 'XQ',
        pair: 'DOGE-USD',
        bp: 0.382141,
        bs: 10,
        ap: 0.382539,
        as: 10,
        t: 1736157600790,
        x: 1,
        r: 1736157600800,
      },
    ]);
    await waitFor('quotes', () => book.get('DOGE_USD'));
    expect(book.get('BTC_USD')).toMatchObject({
      bid: 91250.12,
      ask: 91262.46,
      closeoutBid: 91250.12,
      closeoutAsk: 91262.46,
      time: 1736157600789,
    });
    expect(book.get('DOGE_USD')).toMatchObject({ bid: 0.38214, ask: 0.38254 });
  });
});
