import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, signIn, type TestApp } from '../../../test/helpers.ts';
import { putSetting } from '../settings/service.ts';
import { getApiStatus } from './service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('GET /api/admin/api-status', () => {
  it('gives admins the currency quota as used/total from the currencyAPI record', async () => {
    await putSetting(t.ctx.db, 'currencyAPI', { value2: '227', value3: '300' });
    const cookie = await signIn(t.app, DEMO.admin);
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/api-status', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json().currency).toEqual({ used: 73, total: 300 });
    expect(Array.isArray(res.json().heartbeats)).toBe(true);
  });

  it('is refused to other staff', async () => {
    const cookie = await signIn(t.app, DEMO.manager);
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/api-status', headers: { cookie } });
    expect(res.statusCode).toBe(403);
  });

  it("lists the feed manager's last heartbeats and which providers price a category", async () => {
    const beats = [{ api: 'polygonForex' as const, success: true, msg: 'Connected: 13 instruments' }];
    const sources = {
      forex: 'polygonForex',
      commodity: 'simulated',
      index: 'simulated',
      stock: 'simulated',
      crypto: 'simulated',
    } as const;
    const status = await getApiStatus(t.ctx.db, {
      book: t.ctx.market.book,
      instruments: t.ctx.market.instruments,
      feeds: { heartbeats: () => beats, sources: () => sources },
    });
    expect(status.heartbeats).toEqual(beats);
    expect(status.configured).toEqual(['polygonForex']);
    expect(status.simulated.categories).toEqual(['commodity', 'index', 'stock', 'crypto']);
  });

  it("reports the simulated feed's own heartbeat when no provider has a key", async () => {
    const cookie = await signIn(t.app, DEMO.admin);
    const now = Date.now();
    t.ctx.market.book.apply([
      { name: 'EUR_USD', bid: 1.2345, ask: 1.2347, closeoutBid: 1.2345, closeoutAsk: 1.2347, time: now },
    ]);
    const res = (await t.app.inject({ method: 'GET', url: '/api/admin/api-status', headers: { cookie } })).json();
    expect(res.configured).toEqual([]);
    expect(res.simulated.categories).toEqual(['forex', 'commodity', 'index', 'stock', 'crypto']);
    expect(res.simulated.instruments).toBeGreaterThan(0);
    expect(Date.parse(res.simulated.lastTickAt)).toBeGreaterThanOrEqual(now);
  });
});
