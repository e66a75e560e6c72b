import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, count, desc, eq, isNull } from 'drizzle-orm';
import { createTestApp, DEMO, signIn, type TestApp } from '../../../test/helpers.ts';
import { auditLogs, candles, instruments, orders } from '../../db/schema.ts';
import { writeBars } from '../../market/candles.ts';
import { closeOrder } from '../trading/close-order.ts';
import type { RiskService } from '../../engine/risk-service.ts';

let t: TestApp;
let admin: string;
let client: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, DEMO.admin);
  client = await signIn(t.app, DEMO.client);
});
afterAll(async () => t.close());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, cookie = admin) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

const body = (over: Record<string, unknown> = {}) => ({
  name: 'nok_usd',
  base: 'nok',
  quote: 'usd',
  category: 'forex',
  bids: '0.0912',
  asks: '0.09125',
  tradingview: 'OANDA',
  alias: 'Norwegian Krone / US Dollar',
  leverage: 100,
  tradable: true,
  swap: 0,
  ...over,
});

const order = (instrument: string, cookie = client) =>
  t.app.inject({
    method: 'POST',
    url: '/api/dashboard/orders',
    headers: { cookie },
    payload: { type: 'buy', instrument, amount: '1000' },
  });

const dashboardRow = async (name: string) =>
  (
    (await t.app.inject({ url: '/api/dashboard/instruments', headers: { cookie: client } })).json() as Array<{
      name: string;
      tradable: boolean;
      bids: number | null;
    }>
  ).find((i) => i.name === name);

const lastAudit = async (action: string) =>
  (await t.ctx.db.select().from(auditLogs).where(eq(auditLogs.action, action)).orderBy(desc(auditLogs.id)).limit(1))[0];

async function create(over: Record<string, unknown> = {}): Promise<{ id: number; name: string }> {
  const res = await call('POST', '/api/admin/instruments', body(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().instrument;
}

describe('Instruments: list', () => {
  it('lists one category newest first, paged, with live prices in the instrument digits', async () => {
    const res = await call('GET', '/api/admin/instruments/api/forex');
    expect(res.statusCode).toBe(200);
    const { data, meta } = res.json();
    expect(meta).toEqual({ total: 13, per_page: 15, page: 1 });
    expect(data.every((i: { category: string }) => i.category === 'forex')).toBe(true);
    const ids = data.map((i: { id: number }) => i.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    const eur = data.find((i: { name: string }) => i.name === 'EUR_USD');
    expect(eur).toMatchObject({
      base: 'EUR',
      quote: 'USD',
      tradingview: 'OANDA',
      leverage: 100,
      tradable: true,
      swap: '0',
      digits: 5,
      open_positions: 0,
    });
    expect(eur.bids).toMatch(/^\d+\.\d{5}$/);
    const page2 = (await call('GET', '/api/admin/instruments/api/forex?page=2&limit=5')).json();
    expect(page2.meta).toEqual({ total: 13, per_page: 5, page: 2 });
    expect(page2.data).toHaveLength(5);
  });

  it('searches by name, alias, base or quote', async () => {
    expect((await call('GET', '/api/admin/instruments/api/forex?search=jpy')).json().meta.total).toBe(4);
    expect(
      (await call('GET', '/api/admin/instruments/api/crypto?search=bitcoin'))
        .json()
        .data.map((i: { name: string }) => i.name)
        .sort(),
    ).toEqual(['BCH_USD', 'BTC_USD']);
    expect((await call('GET', '/api/admin/instruments/api/stock?search=50%25')).json().meta.total).toBe(0);
  });

  it('refuses an unknown type and other roles', async () => {
    expect((await call('GET', '/api/admin/instruments/api/bonds')).statusCode).toBe(400);
    const manager = await signIn(t.app, DEMO.manager);
    expect((await call('GET', '/api/admin/instruments/api/forex', undefined, manager)).statusCode).toBe(403);
    expect((await call('POST', '/api/admin/instruments', body({ name: 'HACK_USD' }), manager)).statusCode).toBe(403);
  });
});

describe('Instruments: add', () => {
  it('refuses missing fields with the spec messages and adds nothing', async () => {
    const [{ n: before }] = await t.ctx.db.select({ n: count() }).from(instruments);
    const res = await call('POST', '/api/admin/instruments', {});
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toMatchObject({
      name: 'Name is required',
      base: 'Base is required',
      quote: 'Quote is required',
      category: 'Category is required',
      tradingview: 'Chart provider is required',
      leverage: 'Leverage is required',
      tradable: 'Tradable is required',
    });
    const halfPrice = await call('POST', '/api/admin/instruments', body({ asks: '' }));
    expect(halfPrice.statusCode).toBe(400);
    expect(halfPrice.json().errors).toEqual({ asks: 'Enter both bid and ask, or neither' });
    const crossed = await call('POST', '/api/admin/instruments', body({ bids: '2', asks: '1' }));
    expect(crossed.json().message).toBe('Ask must not be below bid');
    expect((await call('POST', '/api/admin/instruments', body({ leverage: -1 }))).json().message).toBe(
      'Leverage must be 0 or more',
    );
    const [{ n: after }] = await t.ctx.db.select({ n: count() }).from(instruments);
    expect(after).toBe(before);
  });

  it('adds an instrument the market, the dashboard and orders know at once', async () => {
    const reload = vi.spyOn(t.ctx.market.feeds!, 'reload');
    const broadcast = vi.spyOn(t.ctx.realtime, 'broadcast');
    const res = await call('POST', '/api/admin/instruments', body());
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe('Instrument added successfully');
    const created = res.json().instrument;
    expect(created).toMatchObject({
      name: 'NOK_USD',
      base: 'NOK',
      quote: 'USD',
      category: 'forex',
      alias: 'Norwegian Krone / US Dollar',
      digits: 5,
      bids: '0.09120',
      asks: '0.09125',
    });
    expect(reload).toHaveBeenCalledOnce();
    reload.mockRestore();
    // Open dashboards are told to reload the catalogue.
    expect(broadcast).toHaveBeenCalledWith('instrumentsChanged', { at: expect.any(Number) });
    broadcast.mockRestore();

    expect(t.ctx.market.instruments.byNameOf('NOK_USD')?.id).toBe(created.id);
    expect(t.ctx.market.book.get('NOK_USD')).toMatchObject({ bid: 0.0912, ask: 0.09125 });
    expect(await dashboardRow('NOK_USD')).toMatchObject({ tradable: true, bids: 0.0912 });
    // Charts have history from the first view.
    const [{ n: bars }] = await t.ctx.db
      .select({ n: count() })
      .from(candles)
      .where(eq(candles.instrumentId, created.id));
    expect(bars).toBeGreaterThan(300);

    const audit = await lastAudit('instrument.create');
    expect(audit.before).toBeNull();
    expect(audit.after).toMatchObject({ id: created.id, name: 'NOK_USD', bids: '0.0912' });
  });

  it('refuses a name that exists', async () => {
    const res = await call('POST', '/api/admin/instruments', body({ name: 'EUR_USD' }));
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('An instrument with this name already exists.');
  });

  it('takes the decimals of the typed price, and defaults without one', async () => {
    expect((await create({ name: 'AAA_JPY', quote: 'JPY', bids: null, asks: null })).name).toBe('AAA_JPY');
    expect(t.ctx.market.instruments.byNameOf('AAA_JPY')?.digits).toBe(3);
    expect(t.ctx.market.book.get('AAA_JPY')).toBeUndefined();
    await create({
      name: 'PEPE_USD',
      base: 'PEPE',
      quote: 'USD',
      category: 'crypto',
      bids: '0.00001234',
      asks: '0.00001240',
      tradingview: 'BINANCE',
    });
    expect(t.ctx.market.instruments.byNameOf('PEPE_USD')?.digits).toBe(8);
  });
});

describe('Instruments: edit', () => {
  it('switches tradability off and on, and orders follow at once', async () => {
    const nok = t.ctx.market.instruments.byNameOf('NOK_USD')!;
    const off = await call(
      'PUT',
      `/api/admin/instruments/${nok.id}`,
      body({ tradable: false, bids: null, asks: null }),
    );
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().message).toBe('Instrument updated successfully');
    expect((await dashboardRow('NOK_USD'))?.tradable).toBe(false);
    const refused = await order('NOK_USD');
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('This instrument is not tradable.');
    // Empty prices keep the current one.
    expect(t.ctx.market.book.get('NOK_USD')).toMatchObject({ bid: 0.0912 });

    expect(
      (await call('PUT', `/api/admin/instruments/${nok.id}`, body({ tradable: true, bids: '0.0915', asks: '0.0916' })))
        .statusCode,
    ).toBe(200);
    expect(t.ctx.market.book.get('NOK_USD')).toMatchObject({ bid: 0.0915, ask: 0.0916 });
    const placed = await order('NOK_USD');
    expect(placed.statusCode, placed.body).toBe(200);
    const audit = await lastAudit('instrument.update');
    expect(audit.before).toMatchObject({ tradable: false, bids: '0.0912' });
    expect(audit.after).toMatchObject({ tradable: true, bids: '0.0915', asks: '0.0916' });
  });

  it('keeps name, base, quote and category while positions are open, other fields may change', async () => {
    const nok = t.ctx.market.instruments.byNameOf('NOK_USD')!;
    const listed = (await call('GET', '/api/admin/instruments/api/forex?search=NOK_USD')).json().data[0];
    expect(listed.open_positions).toBe(1);
    const renamed = await call(
      'PUT',
      `/api/admin/instruments/${nok.id}`,
      body({ name: 'NOK_USD2', bids: null, asks: null }),
    );
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json().message).toBe(
      'This instrument has open positions: its name, base, quote and category cannot change until they are closed.',
    );
    const leverage = await call(
      'PUT',
      `/api/admin/instruments/${nok.id}`,
      body({ leverage: 50, swap: '-0.25', bids: null, asks: null }),
    );
    expect(leverage.statusCode).toBe(200);
    expect(t.ctx.market.instruments.byIdOf(nok.id)).toMatchObject({ leverage: 50, swap: '-0.2500', name: 'NOK_USD' });
  });

  it('renames an unused instrument and keeps its price under the new name', async () => {
    const aaa = t.ctx.market.instruments.byNameOf('PEPE_USD')!;
    const quote = t.ctx.market.book.get('PEPE_USD')!;
    const res = await call(
      'PUT',
      `/api/admin/instruments/${aaa.id}`,
      body({
        name: 'PEPE2_USD',
        base: 'PEPE2',
        quote: 'USD',
        category: 'crypto',
        bids: null,
        asks: null,
        tradingview: 'BINANCE',
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(t.ctx.market.instruments.byNameOf('PEPE_USD')).toBeUndefined();
    expect(t.ctx.market.instruments.byNameOf('PEPE2_USD')?.id).toBe(aaa.id);
    expect(t.ctx.market.book.get('PEPE2_USD')).toMatchObject({ bid: quote.bid, ask: quote.ask });
  });

  it('answers 404 for an unknown instrument and 409 for a taken name', async () => {
    expect((await call('PUT', '/api/admin/instruments/999999', body({ name: 'NEW_ONE' }))).statusCode).toBe(404);
    const aaa = t.ctx.market.instruments.byNameOf('AAA_JPY')!;
    const taken = await call('PUT', `/api/admin/instruments/${aaa.id}`, body({ name: 'USD_JPY', quote: 'JPY' }));
    expect(taken.statusCode).toBe(409);
    expect(t.ctx.market.instruments.byIdOf(aaa.id)?.name).toBe('AAA_JPY');
  });
});

describe('Instruments: delete', () => {
  it('refuses while positions are open, then while trade history refers to it', async () => {
    const nok = t.ctx.market.instruments.byNameOf('NOK_USD')!;
    const open = await call('DELETE', `/api/admin/instruments/${nok.id}`);
    expect(open.statusCode).toBe(409);
    expect(open.json().message).toBe('This instrument has open positions. Close them before deleting it.');
    const positions = await t.ctx.db
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.instrumentId, nok.id), isNull(orders.closeTime)));
    for (const p of positions) await closeOrder(t.ctx, { orderId: p.id, reason: 'admin' });
    await (t.ctx.risk as RiskService).idle();
    const history = await call('DELETE', `/api/admin/instruments/${nok.id}`);
    expect(history.statusCode).toBe(409);
    expect(history.json().message).toBe(
      'This instrument has trade history and cannot be deleted. Make it not tradable instead.',
    );
    expect(t.ctx.market.instruments.byIdOf(nok.id)).toBeDefined();
  });

  it('deletes an unused instrument everywhere at once and audits it', async () => {
    const aaa = t.ctx.market.instruments.byNameOf('AAA_JPY')!;
    const res = await call('DELETE', `/api/admin/instruments/${aaa.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Instrument deleted successfully');
    expect(t.ctx.market.instruments.byIdOf(aaa.id)).toBeUndefined();
    expect(await dashboardRow('AAA_JPY')).toBeUndefined();
    expect((await order('AAA_JPY')).statusCode).toBe(404);
    expect((await lastAudit('instrument.delete')).before).toMatchObject({ id: aaa.id, name: 'AAA_JPY' });
    expect((await call('DELETE', `/api/admin/instruments/${aaa.id}`)).statusCode).toBe(404);
  });

  it('leaves candle saving working when bars of a deleted instrument were still waiting', async () => {
    const pepe = t.ctx.market.instruments.byNameOf('PEPE2_USD')!;
    expect((await call('DELETE', `/api/admin/instruments/${pepe.id}`)).statusCode).toBe(200);
    const eur = t.ctx.market.instruments.byNameOf('EUR_USD')!;
    const time = Date.UTC(2020, 0, 1);
    await writeBars(
      t.ctx.db,
      [
        { instrumentId: pepe.id, interval: '1m', start: time, open: 1, high: 1, low: 1, close: 1 },
        { instrumentId: eur.id, interval: '1m', start: time, open: 1.1, high: 1.2, low: 1, close: 1.15 },
      ],
      'merge',
    );
    const [{ n }] = await t.ctx.db
      .select({ n: count() })
      .from(candles)
      .where(and(eq(candles.instrumentId, eur.id), eq(candles.time, new Date(time))));
    expect(n).toBe(1);
  });
});
