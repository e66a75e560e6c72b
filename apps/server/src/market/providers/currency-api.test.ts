import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { getSetting, putSetting } from '../../modules/settings/service.ts';
import { createCurrencyApiFeed } from './currency-api.ts';
import { FakeCurrencyApi } from '../../../test/fakes/currency-api.ts';

const KEY = 'cur-good-key';
let t: TestApp;
let fake: FakeCurrencyApi;
beforeAll(async () => {
  t = await createTestApp();
  fake = await FakeCurrencyApi.start(KEY, { total: 300, used: 72 });
});
afterAll(async () => {
  await fake.close();
  await t.close();
});

const feedWith = (apiKey: string, baseUrl = fake.url) => createCurrencyApiFeed({ apiKey, baseUrl, db: t.ctx.db });

describe('currencyapi.com', () => {
  it('fetches USD-based rates with the apikey header and stores the quota in the currencyAPI record', async () => {
    const feed = feedWith(KEY);
    await feed.refresh();
    expect(fake.calls.map((c) => [c.path, c.apikey])).toEqual([
      ['/v3/status', KEY],
      ['/v3/latest?base_currency=USD', KEY],
    ]);
    expect(Object.fromEntries(feed.rates())).toEqual({ USD: 1, EUR: 0.92345, GBP: 0.79012, JPY: 151.2 });
    expect(feed.quota()).toEqual({ total: 300, used: 73, remaining: 227 });
    const row = await getSetting(t.ctx.db, 'currencyAPI');
    expect(row).toMatchObject({ value2: '227', value3: '300' });
    await feed.stop();
  });

  it('keeps rates empty and the record untouched when the key is refused', async () => {
    await putSetting(t.ctx.db, 'currencyAPI', { value2: '5', value3: '10' });
    const logs: string[] = [];
    const feed = createCurrencyApiFeed({ apiKey: 'wrong', baseUrl: fake.url, db: t.ctx.db, log: (m) => logs.push(m) });
    await feed.refresh();
    expect(feed.rates().size).toBe(0);
    expect(logs.at(-1)).toContain(FakeCurrencyApi.REFUSAL);
    expect(await getSetting(t.ctx.db, 'currencyAPI')).toMatchObject({ value2: '5', value3: '10' });
  });

  it("spends no paid request once the month's quota is used up", async () => {
    const spent = await FakeCurrencyApi.start(KEY, { total: 300, used: 300 });
    try {
      const feed = feedWith(KEY, spent.url);
      await feed.refresh();
      expect(spent.calls.map((c) => c.path)).toEqual(['/v3/status']);
      expect(feed.rates().size).toBe(0);
      expect(await getSetting(t.ctx.db, 'currencyAPI')).toMatchObject({ value2: '0', value3: '300' });
    } finally {
      await spent.close();
    }
  });
});
