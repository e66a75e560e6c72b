import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { type ChartSettings, type DrawingDto, INDICATOR_DEFAULTS, MAX_DRAWINGS_PER_INSTRUMENT } from '@platform/domain';
import { createTestApp, DEMO, newVerifiedCustomer, signIn, type TestApp } from '../../../test/helpers.ts';
import { chartDrawings, users } from '../../db/schema.ts';

let t: TestApp;
let client: string;
let clientId: number;
let other: string;
let admin: string;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const api = (method: Method, url: string, cookie: string | null, payload?: unknown) =>
  t.app.inject({
    method,
    url: `/api/dashboard/chart${url}`,
    headers: cookie ? { cookie } : {},
    payload: payload as object,
  });

const MONDAY = Date.UTC(2026, 10, 23) / 1000;
const p = (price: number, days = 0) => ({ time: MONDAY + days * 86_400, price });
const trend = { kind: 'trend', points: [p(1.08), p(1.09, 5)] } as const;

const create = async (body: object, cookie = client) => {
  const res = await api('POST', '/drawings', cookie, { symbol: 'EUR_USD', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { drawing: DrawingDto }).drawing;
};
const list = async (symbol = 'EUR_USD', cookie = client) => {
  const res = await api('GET', `/drawings?symbol=${encodeURIComponent(symbol)}`, cookie);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: DrawingDto[] }).data;
};

beforeAll(async () => {
  t = await createTestApp({ MARKET_FEED: 'false' });
  client = await signIn(t.app, DEMO.client);
  admin = await signIn(t.app, DEMO.admin);
  [{ id: clientId }] = await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO.client));
  const o = await newVerifiedCustomer(t, 'chart');
  other = await signIn(t.app, o.email, o.password);
});
afterAll(() => t.close());

describe('chart settings (indicators)', () => {
  it('are empty at first, then keep what the trader saves, per user', async () => {
    expect((await api('GET', '/settings', client)).json()).toEqual({ indicators: [] });
    const settings: ChartSettings = {
      indicators: [INDICATOR_DEFAULTS.rsi, { type: 'ema', period: 20 }, { type: 'bb', period: 20, stdDev: 2.5 }],
    };
    const saved = await api('PUT', '/settings', client, settings);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual(settings);
    expect((await api('GET', '/settings', client)).json()).toEqual(settings);
    expect((await api('GET', '/settings', other)).json()).toEqual({ indicators: [] });
    // Saving again replaces the list, down to none.
    await api('PUT', '/settings', client, { indicators: [INDICATOR_DEFAULTS.macd] });
    expect((await api('GET', '/settings', client)).json()).toEqual({ indicators: [INDICATOR_DEFAULTS.macd] });
  });

  it('refuse unknown indicators, parameters out of bounds and too many, with a message', async () => {
    for (const body of [
      {},
      { indicators: 'rsi' },
      { indicators: [{ type: 'ichimoku' }] },
      { indicators: [{ type: 'rsi' }] },
      { indicators: [{ type: 'rsi', period: 0 }] },
      { indicators: [{ type: 'sma', period: 501 }] },
      { indicators: [{ type: 'sma', period: '20' }] },
      { indicators: [{ type: 'ema', period: 2.5 }] },
      { indicators: [{ type: 'bb', period: 20, stdDev: 11 }] },
      { indicators: [{ type: 'macd', fast: 26, slow: 12, signal: 9 }] },
      { indicators: [{ type: 'stoch', kPeriod: 14, kSmooth: 0, dPeriod: 3 }] },
      { indicators: Array.from({ length: 11 }, () => INDICATOR_DEFAULTS.sma) },
    ]) {
      const res = await api('PUT', '/settings', client, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message, JSON.stringify(body)).toBeTruthy();
    }
    expect((await api('GET', '/settings', client)).json()).toEqual({ indicators: [INDICATOR_DEFAULTS.macd] });
  });

  it('need a session', async () => {
    expect((await api('GET', '/settings', null)).statusCode).toBe(401);
    expect((await api('PUT', '/settings', null, { indicators: [] })).statusCode).toBe(401);
  });
});

describe('chart drawings', () => {
  it('are created, listed per instrument (either spelling) and per user', async () => {
    const line = await create(trend);
    expect(line).toMatchObject({ symbol: 'EUR_USD', kind: 'trend', points: trend.points });
    const level = await create({ kind: 'hline', points: [p(1.085)] });
    const measure = await create({ kind: 'range', points: [p(1.07, 1), p(1.1, 4)] });
    await create({ symbol: 'GBP_USD', kind: 'hline', points: [p(1.3)] });
    expect((await list('EUR/USD')).map((d) => d.id)).toEqual([line.id, level.id, measure.id]);
    expect((await list('GBP_USD')).map((d) => d.kind)).toEqual(['hline']);
    expect(await list('EUR_USD', other)).toEqual([]);
    // Staff have the dashboard too, with drawings of their own.
    await create({ kind: 'hline', points: [p(1.2)] }, admin);
    expect((await list('EUR_USD', admin)).map((d) => d.points[0].price)).toEqual([1.2]);
    expect((await list('EUR_USD')).length).toBe(3);
  });

  it('are moved and deleted by their owner only: anyone else gets a 404', async () => {
    const mine = await create(trend);
    const moved = { kind: 'trend', points: [p(1.081, 1), p(1.095, 6)] };
    const theirs = await api('PUT', `/drawings/${mine.id}`, other, moved);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual({ message: 'Drawing not found.' });
    expect((await api('DELETE', `/drawings/${mine.id}`, other)).statusCode).toBe(404);
    expect((await api('DELETE', `/drawings/${mine.id}`, admin)).statusCode).toBe(404);

    const res = await api('PUT', `/drawings/${mine.id}`, client, moved);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().drawing).toMatchObject({ id: mine.id, symbol: 'EUR_USD', points: moved.points });
    expect((await list()).find((d) => d.id === mine.id)?.points).toEqual(moved.points);

    expect((await api('DELETE', `/drawings/${mine.id}`, client)).statusCode).toBe(200);
    expect((await list()).some((d) => d.id === mine.id)).toBe(false);
    expect((await api('DELETE', `/drawings/${mine.id}`, client)).statusCode).toBe(404);
    expect((await api('PUT', `/drawings/${mine.id}`, client, moved)).statusCode).toBe(404);
    expect((await api('PUT', '/drawings/999999', client, moved)).statusCode).toBe(404);
  });

  it('refuse bad input with a message', async () => {
    const good = { symbol: 'EUR_USD', ...trend };
    for (const body of [
      {},
      { ...good, symbol: '' },
      { ...good, symbol: 'X'.repeat(41) },
      { ...good, kind: 'circle' },
      { ...good, kind: 'hline' },
      { ...good, points: [p(1.08)] },
      { ...good, points: [p(1.08), p(1.09), p(1.1)] },
      { ...good, points: [p(-1), p(1.09)] },
      { ...good, points: [p(0), p(1.09)] },
      { ...good, points: [{ time: MONDAY, price: 2e9 }, p(1.09)] },
      { ...good, points: [{ time: -1, price: 1.08 }, p(1.09)] },
      { ...good, points: [{ time: 1e11, price: 1.08 }, p(1.09)] },
      { ...good, points: [{ time: MONDAY + 0.5, price: 1.08 }, p(1.09)] },
      { ...good, points: [{ time: MONDAY, price: '1.08' }, p(1.09)] },
    ]) {
      const res = await api('POST', '/drawings', client, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message, JSON.stringify(body)).toBeTruthy();
    }
    const unknown = await api('POST', '/drawings', client, { ...good, symbol: 'NOPE_USD' });
    expect(unknown.statusCode).toBe(404);
    expect((await api('GET', '/drawings?symbol=NOPE_USD', client)).statusCode).toBe(404);
    expect((await api('GET', '/drawings', client)).statusCode).toBe(400);
    expect((await api('PUT', '/drawings/abc', client, trend)).statusCode).toBe(400);
    expect((await api('PUT', '/drawings/1', client, { kind: 'trend', points: [] })).statusCode).toBe(400);
    expect((await api('DELETE', '/drawings/-1', client)).statusCode).toBe(400);
    expect((await api('GET', '/drawings?symbol=EUR_USD', null)).statusCode).toBe(401);
    expect((await api('POST', '/drawings', null, good)).statusCode).toBe(401);
  });

  it('stop at the cap per instrument, and room comes back with a deletion', async () => {
    const usd = t.ctx.market.instruments.byNameOf('USD_JPY')!;
    await t.ctx.db.insert(chartDrawings).values(
      Array.from({ length: MAX_DRAWINGS_PER_INSTRUMENT - 1 }, (_, i) => ({
        userId: clientId,
        instrumentId: usd.id,
        kind: 'hline',
        points: [p(150 + i / 10)],
      })),
    );
    const last = await create({ symbol: 'USD_JPY', kind: 'hline', points: [p(160)] });
    const over = await api('POST', '/drawings', client, { symbol: 'USD_JPY', kind: 'hline', points: [p(161)] });
    expect(over.statusCode).toBe(422);
    expect(over.json().message).toMatch(/most drawings/);
    expect(await list('USD_JPY')).toHaveLength(MAX_DRAWINGS_PER_INSTRUMENT);
    // Another instrument, and another user, are not affected.
    await create({ symbol: 'USD_JPY', kind: 'hline', points: [p(161)] }, other);
    await api('DELETE', `/drawings/${last.id}`, client);
    await create({ symbol: 'USD_JPY', kind: 'hline', points: [p(161)] });
  });
});
