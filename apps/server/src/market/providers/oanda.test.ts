import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Heartbeat } from '@platform/domain';
import { PriceBook } from '../price-book.ts';
import type { FeedProvider } from '../feed-provider.ts';
import { createOandaFeed, oandaStreamHost } from './oanda.ts';
import { FakeOanda } from '../../../test/fakes/oanda.ts';
import { instrumentRow } from '../../../test/fakes/instruments.ts';
import { sleep, waitFor } from '../../../test/fakes/wait.ts';

const ACCOUNT = '101-004-1234567-001';
const KEY = 'oanda-token';
const ROWS = [
  instrumentRow('EUR_USD', 'forex', 5),
  instrumentRow('XAU_USD', 'commodity', 2),
  instrumentRow('SPX500_USD', 'index', 1),
];
const timing = { minRetryMs: 50, maxRetryMs: 200, authRetryMs: 60_000, stallMs: 400 };

let fake: FakeOanda;
let feed: FeedProvider | null = null;
beforeAll(async () => {
  fake = await FakeOanda.start(ACCOUNT, KEY, 100);
});
afterEach(async () => {
  await feed?.stop();
  feed = null;
  fake.stalled = false;
});
afterAll(async () => fake.close());

function start(apiKey = KEY) {
  const book = new PriceBook();
  const beats: Heartbeat[] = [];
  feed = createOandaFeed({
    accountId: ACCOUNT,
    apiKey,
    mode: 'fxpractice',
    baseUrl: fake.url,
    sink: book,
    instruments: () => ROWS,
    onHeartbeat: (b) => beats.push(b),
    timing,
  });
  void feed.start();
  return { book, beats };
}

describe('Oanda v20 pricing stream', () => {
  it('picks the practice or live stream host from the mode unless overridden', () => {
    expect(oandaStreamHost('fxpractice')).toBe('https://stream-fxpractice.oanda.com');
    expect(oandaStreamHost('fxtrade')).toBe('https://stream-fxtrade.oanda.com');
    expect(oandaStreamHost('fxtrade', 'http://127.0.0.1:9/')).toBe('http://127.0.0.1:9');
  });

  it('streams the instruments with the bearer token and writes prices with their closeout prices', async () => {
    const { book, beats } = start();
    await waitFor('stream', () => fake.open === 1 && beats.at(-1)?.success);
    expect(fake.requests.at(-1)).toEqual({
      account: ACCOUNT,
      instruments: ['EUR_USD', 'XAU_USD', 'SPX500_USD'],
      authorization: `Bearer ${KEY}`,
    });
    expect(beats.at(-1)).toMatchObject({ api: 'oandaRest', success: true });

    fake.price('EUR_USD', '1.08516', '1.08531', { closeoutBid: '1.08501', closeoutAsk: '1.08546' });
    fake.price('XAU_USD', '2651.254', '2651.556');
    fake.price('SPX500_USD', '5901.1', '5901.6', { tradeable: false });
    await waitFor('quotes', () => book.get('XAU_USD'));
    expect(book.get('EUR_USD')).toEqual({
      name: 'EUR_USD',
      bid: 1.08516,
      ask: 1.08531,
      closeoutBid: 1.08501,
      closeoutAsk: 1.08546,
      time: Date.parse('2025-01-06T10:00:00.123Z'),
    });
    expect(book.get('XAU_USD')).toMatchObject({
      bid: 2651.25,
      ask: 2651.56,
      closeoutBid: 2651.25,
      closeoutAsk: 2651.56,
    });
    // A non-tradeable price is not one a client could deal on.
    expect(book.get('SPX500_USD')).toBeUndefined();
  });

  it("reports Oanda's errorMessage on a refused token and gets no quotes", async () => {
    const before = fake.requests.length;
    const { book, beats } = start('wrong');
    await waitFor('failure heartbeat', () => beats.find((b) => !b.success));
    expect(beats).toEqual([{ api: 'oandaRest', success: false, msg: FakeOanda.REFUSAL }]);
    await sleep(300);
    expect(fake.requests.length - before).toBe(1);
    expect(book.all()).toHaveLength(0);
  });

  it('reconnects after the stream is cut and prices resume', async () => {
    const { book, beats } = start();
    await waitFor('stream', () => fake.open === 1);
    const requests = fake.requests.length;
    fake.dropAll();
    await waitFor('disconnect heartbeat', () => beats.find((b) => !b.success));
    expect(beats.find((b) => !b.success)?.msg).toMatch(/^Disconnected \(.+\); reconnecting in/);
    await waitFor(
      'second stream',
      () => fake.open === 1 && fake.requests.length === requests + 1 && beats.at(-1)?.success,
    );
    fake.price('EUR_USD', '1.1', '1.10015');
    await waitFor('quote after reconnect', () => book.get('EUR_USD'));
    expect(book.get('EUR_USD')).toMatchObject({ bid: 1.1, ask: 1.10015 });
  });

  it('treats a stream that goes silent (no HEARTBEAT) as dead and reconnects', async () => {
    const { beats } = start();
    await waitFor('stream', () => fake.open === 1 && beats.at(-1)?.success);
    const requests = fake.requests.length;
    fake.stalled = true;
    await waitFor('stall heartbeat', () => beats.find((b) => !b.success), 3000);
    expect(beats.find((b) => !b.success)?.msg).toMatch(/no data for/);
    fake.stalled = false;
    await waitFor('new stream', () => fake.requests.length > requests && beats.at(-1)?.success, 3000);
  });
});
