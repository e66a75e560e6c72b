import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Heartbeat } from '@platform/domain';
import { PriceBook } from '../price-book.ts';
import type { FeedProvider } from '../feed-provider.ts';
import { createEodFeed } from './eod.ts';
import { FakeEod } from '../../../test/fakes/eod.ts';
import { instrumentRow } from '../../../test/fakes/instruments.ts';
import { sleep, waitFor } from '../../../test/fakes/wait.ts';

const KEY = 'eod-good-token';
const STOCKS = [instrumentRow('AAPL_USD', 'stock', 2), instrumentRow('MSFT_USD', 'stock', 2)];
const timing = { minRetryMs: 50, maxRetryMs: 200, authRetryMs: 60_000, stallMs: 2000 };

let fake: FakeEod;
let feed: FeedProvider | null = null;
beforeAll(async () => {
  fake = await FakeEod.start(KEY);
});
afterEach(async () => {
  await feed?.stop();
  feed = null;
});
afterAll(async () => fake.close());

function start(apiKey = KEY) {
  const book = new PriceBook();
  const beats: Heartbeat[] = [];
  feed = createEodFeed({
    apiKey,
    baseUrl: fake.url,
    sink: book,
    instruments: () => STOCKS,
    onHeartbeat: (b) => beats.push(b),
    timing,
  });
  void feed.start();
  return { book, beats };
}

describe('EOD Historical Data US quotes', () => {
  it('subscribes with the tickers and writes quotes under our {TICKER}_USD names', async () => {
    const { book, beats } = start();
    await waitFor('subscription', () => fake.subscribers('MSFT') === 1);
    expect(fake.paths.at(-1)).toBe('/ws/us-quote');
    expect(fake.subscriptions.at(-1)).toBe('AAPL,MSFT');
    await waitFor('success heartbeat', () => beats.at(-1)?.success);
    expect(beats.at(-1)).toMatchObject({ api: 'eodStock', success: true });

    fake.quote('AAPL', 228.504, 228.546, 1736175600123);
    fake.quote('TSLA', 341.5, 341.6);
    await waitFor('quote', () => book.get('AAPL_USD'));
    expect(book.get('AAPL_USD')).toEqual({
      name: 'AAPL_USD',
      bid: 228.5,
      ask: 228.55,
      closeoutBid: 228.5,
      closeoutAsk: 228.55,
      time: 1736175600123,
    });
    expect(book.all()).toHaveLength(1);
  });

  it('reports the provider message on a refused token and gets no quotes', async () => {
    const { book, beats } = start('bad-token');
    await waitFor('failure heartbeat', () => beats.find((b) => !b.success));
    expect(beats).toEqual([{ api: 'eodStock', success: false, msg: FakeEod.REFUSAL }]);
    await sleep(300);
    expect(beats).toHaveLength(1);
    expect(book.all()).toHaveLength(0);
  });

  it('reconnects after a drop, subscribes again and quotes resume', async () => {
    const { book, beats } = start();
    await waitFor('first session', () => fake.subscribers('AAPL') === 1);
    const subscribes = fake.subscriptions.length;
    fake.dropAll();
    await waitFor('disconnect heartbeat', () => beats.find((b) => !b.success));
    await waitFor(
      'second session',
      () => fake.subscribers('AAPL') === 1 && fake.subscriptions.length === subscribes + 1,
    );
    fake.quote('MSFT', 415.301, 415.369, 1736175700000);
    await waitFor('quote after reconnect', () => book.get('MSFT_USD'));
    expect(book.get('MSFT_USD')).toMatchObject({ bid: 415.3, ask: 415.37 });
    expect(beats.at(-1)?.success).toBe(true);
  });
});
