import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { dec } from '@platform/domain';
import { createTestApp, DEMO, ledgerAndBalance, resetWalletTo, signIn, type TestApp } from '../../../test/helpers.ts';
import { auditLogs, orders, users } from '../../db/schema.ts';
import type { RiskService } from '../../engine/risk-service.ts';
import type { ClusterBus } from '../../cluster/bus.ts';
import { soleLeader } from '../../cluster/leader.ts';
import { InstrumentRegistry, type InstrumentRow } from '../../market/instruments.ts';
import { PriceBook, type Quote } from '../../market/price-book.ts';
import { createSimulatedFeed } from '../../market/simulated-feed.ts';
import { deliverSimulatedQuote } from './service.ts';

let t: TestApp;
let admin: string;
let manager: string;
let client: string;
let adminId: number;
let walletId: number;

const setPrice = (payload: unknown, cookie = admin) =>
  t.app.inject({ method: 'POST', url: '/api/admin/simulator/price', headers: { cookie }, payload: payload as object });
const quoteOf = (name: string) => t.ctx.market.book.get(name);
const lastAudit = async () =>
  (
    await t.ctx.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.action, 'simulator.price'))
      .orderBy(desc(auditLogs.id))
      .limit(1)
  )[0];
const auditCount = async () =>
  (
    await t.ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(auditLogs)
      .where(eq(auditLogs.action, 'simulator.price'))
  )[0].n;
const instrumentsAsClient = async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/dashboard/instruments', headers: { cookie: client } });
  expect(res.statusCode).toBe(200);
  return res.json() as Array<{ name: string; bids: number; asks: number }>;
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, DEMO.admin);
  manager = await signIn(t.app, DEMO.manager);
  client = await signIn(t.app, DEMO.client);
  const [a] = await t.ctx.db.select().from(users).where(eq(users.email, DEMO.admin));
  adminId = a.id;
  const [c] = await t.ctx.db.select().from(users).where(eq(users.email, DEMO.client));
  walletId = c.activeBalanceId!;
});
afterAll(() => t.close());

describe('POST /admin/simulator/price', () => {
  it('sets the quote, which the public instrument list then shows, and audits old and new prices', async () => {
    const before = quoteOf('EUR_USD')!;
    const res = await setPrice({ instrument: 'EUR_USD', bid: '1.23450', ask: 1.2347 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      instrument: 'EUR_USD',
      bid: '1.23450',
      ask: '1.23470',
      marketOpen: true,
      previous: { bid: before.bid.toFixed(5), ask: before.ask.toFixed(5) },
    });
    expect(quoteOf('EUR_USD')).toMatchObject({ bid: 1.2345, ask: 1.2347 });
    const eur = (await instrumentsAsClient()).find((i) => i.name === 'EUR_USD')!;
    expect([eur.bids, eur.asks]).toEqual([1.2345, 1.2347]);

    const row = await lastAudit();
    expect(row).toMatchObject({
      actorId: adminId,
      subjectType: 'instrument',
      subjectId: t.ctx.market.instruments.byNameOf('EUR_USD')!.id,
      before: { instrument: 'EUR_USD', bid: before.bid.toFixed(5), ask: before.ask.toFixed(5) },
      after: { instrument: 'EUR_USD', bid: '1.23450', ask: '1.23470', marketOpen: true },
    });
  });

  it('accepts the chart spelling of a name and equal bid and ask', async () => {
    const res = await setPrice({ instrument: 'usd/jpy', bid: '150.5', ask: '150.5' });
    expect(res.statusCode).toBe(200);
    expect(quoteOf('USD_JPY')).toMatchObject({ bid: 150.5, ask: 150.5 });
  });

  it('lets the simulated feed walk on from the set price instead of snapping back', async () => {
    const row = t.ctx.market.instruments.byNameOf('GBP_USD')!;
    const book = t.ctx.market.book;
    const feed = createSimulatedFeed({ book, instruments: () => [row], isOpen: () => true, seed: 7, tickMs: 100 });
    const moveOnce = () => {
      const start = book.get(row.name)!;
      for (let i = 0; i < 200 && book.get(row.name) === start; i++) feed.burst();
      expect(book.get(row.name)).not.toBe(start);
      return book.get(row.name)!;
    };
    // The feed has its own state from the current price.
    for (let i = 0; i < 5; i++) moveOnce();
    const old = book.get(row.name)!;
    expect((await setPrice({ instrument: 'GBP_USD', bid: '2.00000', ask: '2.00020' })).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) {
      const q = moveOnce();
      expect(Math.abs((q.bid + q.ask) / 2 - 2.0001)).toBeLessThan(0.01);
      expect(Math.abs(q.bid - old.bid)).toBeGreaterThan(0.5);
    }
  });

  it('crosses an open position’s stop-loss: the risk engine closes it at the set price', async () => {
    await resetWalletTo(t, walletId, '10000');
    (t.ctx.risk as RiskService).engine.setWalletBalance(walletId, 10000);
    expect((await setPrice({ instrument: 'EUR_USD', bid: '1.10000', ask: '1.10020' })).statusCode).toBe(200);
    const placed = await t.app.inject({
      method: 'POST',
      url: '/api/dashboard/orders',
      headers: { cookie: client },
      payload: { type: 'buy', instrument: 'EUR_USD', amount: 10000, loss: '1.095' },
    });
    expect(placed.statusCode).toBe(200);
    const id = placed.json().order.id as number;

    // A gap through the level: the fill is the price of the tick that crossed it.
    expect((await setPrice({ instrument: 'EUR_USD', bid: '1.09000', ask: '1.09020' })).statusCode).toBe(200);
    await (t.ctx.risk as RiskService).idle();
    const [o] = await t.ctx.db.select().from(orders).where(eq(orders.id, id));
    expect(o.closeReason).toBe('stop_loss');
    expect(dec(o.closeRate!).toString()).toBe('1.09');
    // (1.09 − 1.1002) × 10000 − 2 (spread) = −104
    expect(dec(o.proLoss!).toString()).toBe('-104');
    const { ledger, balance } = await ledgerAndBalance(t, walletId);
    expect(dec(balance).toString()).toBe('9896');
    expect(dec(ledger)).toEqual(dec(balance));
    const open = await t.ctx.db
      .select()
      .from(orders)
      .where(and(eq(orders.balanceId, walletId), isNull(orders.closeTime)));
    expect(open).toEqual([]);
  });

  it('refuses bad input with a 400 and a message, changing nothing', async () => {
    const before = quoteOf('EUR_USD');
    const audits = await auditCount();
    const cases: Array<[unknown, string]> = [
      [{ instrument: 'EUR_USD', bid: -1, ask: 1.1 }, 'Bid must be a positive number with at most 8 decimals'],
      [{ instrument: 'EUR_USD', bid: '1.1', ask: '-1.2' }, 'Ask must be a positive number with at most 8 decimals'],
      [{ instrument: 'EUR_USD', bid: 0, ask: 1 }, 'Bid must be greater than 0'],
      [{ instrument: 'EUR_USD', bid: '1.2', ask: '1.1' }, 'Ask must be at least the bid'],
      [{ instrument: 'EUR_USD', bid: 1e13, ask: 1e13 }, 'Bid must be at most 1000000000'],
      [{ instrument: 'EUR_USD', bid: '1.1', ask: 'abc' }, 'Ask must be a positive number with at most 8 decimals'],
      [{ instrument: 'EUR_USD', ask: '1.1' }, 'Bid is required'],
      [{ bid: '1.1', ask: '1.2' }, 'Instrument is required'],
      [{ instrument: 'EUR\u0000USD', bid: '1.1', ask: '1.2' }, 'Contains characters that are not allowed'],
      [{ instrument: 'EUR_USD', bid: { v: 1 }, ask: [1] }, 'Bid is required'],
      [{ instrument: 'EUR_USD', bid: 'NaN', ask: 'Infinity' }, 'Bid must be a positive number with at most 8 decimals'],
      [
        { instrument: 'EUR_USD', bid: '1.1000001', ask: '1.2' },
        'Bid must have at most 5 decimals (the digits of EUR_USD)',
      ],
    ];
    for (const [payload, message] of cases) {
      const res = await setPrice(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message, JSON.stringify(payload)).toBe(message);
    }
    const unknown = await setPrice({ instrument: 'NOPE_XYZ', bid: '1', ask: '2' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Instrument not found.');
    expect(quoteOf('EUR_USD')).toBe(before);
    expect(await auditCount()).toBe(audits);
  });

  it('is for admins only: 403 for a customer and a manager, 401 signed out', async () => {
    const before = quoteOf('EUR_USD');
    for (const cookie of [client, manager]) {
      const res = await setPrice({ instrument: 'EUR_USD', bid: '1.5', ask: '1.5002' }, cookie);
      expect(res.statusCode).toBe(403);
    }
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/admin/simulator/price',
      payload: { instrument: 'EUR_USD', bid: '1.5', ask: '1.5002' },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(quoteOf('EUR_USD')).toBe(before);
  });

  it('appears in the OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(Object.keys(res.json().paths)).toContain('/api/admin/simulator/price');
  });

  it('on a follower, forwards the quote to the leader instead of ticking its own book', async () => {
    const { cluster } = t.ctx;
    const sent: unknown[] = [];
    const saved = { bus: cluster.bus, leadership: cluster.leadership };
    cluster.bus = { ...saved.bus, enabled: true, publish: (_channel, m) => void sent.push(m) } as ClusterBus;
    cluster.leadership = { ...soleLeader(), isLeader: false };
    const before = quoteOf('AUD_USD');
    try {
      const res = await setPrice({ instrument: 'AUD_USD', bid: '0.70000', ask: '0.70010' });
      expect(res.statusCode).toBe(200);
      expect(quoteOf('AUD_USD')).toBe(before);
    } finally {
      Object.assign(cluster, saved);
    }
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ name: 'AUD_USD', bid: 0.7, ask: 0.7001 });
    // What the leader does with it (its bus handler): the quote becomes a tick of its book.
    deliverSimulatedQuote(t.ctx, JSON.parse(JSON.stringify(sent[0])) as Quote);
    expect(quoteOf('AUD_USD')).toMatchObject({ bid: 0.7, ask: 0.7001 });
  });

  it('refuses (409) an instrument whose category a real provider prices, and nothing changes', async () => {
    const stock = t.ctx.market.instruments.ofCategory('stock')[0];
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/apis/eodAPI',
      headers: { cookie: admin },
      payload: { key: 'eodAPI', value1: 'demo-key' },
    });
    expect(saved.statusCode).toBe(200);
    const before = quoteOf(stock.name);
    const audits = await auditCount();
    const res = await setPrice({ instrument: stock.name, bid: '10', ask: '10.01' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      `${stock.name} is priced by EOD, not by the simulated feed: its price cannot be set.`,
    );
    expect(quoteOf(stock.name)).toBe(before);
    expect(await auditCount()).toBe(audits);
    // Forex stays with the simulated feed while only EOD is configured.
    expect((await setPrice({ instrument: 'EUR_USD', bid: '1.1', ask: '1.1002' })).statusCode).toBe(200);
  });
});

describe('where a set quote goes', () => {
  const row = { id: 1, name: 'EUR_USD', category: 'forex' } as InstrumentRow;
  const setup = (open: boolean, isLeader: boolean) => {
    const book = new PriceBook();
    const instruments = new InstrumentRegistry();
    instruments.byNameOf = (name) => (name === row.name ? row : undefined);
    const ticks: Quote[] = [];
    book.onTicks((changed) => ticks.push(...changed));
    const ctx = {
      market: { book, instruments, isOpen: () => open },
      cluster: { leadership: { ...soleLeader(), isLeader } },
    } as unknown as Parameters<typeof deliverSimulatedQuote>[0];
    return { ctx, book, ticks };
  };
  const quote: Quote = { name: 'EUR_USD', bid: 1.2, ask: 1.2002, closeoutBid: 1.2, closeoutAsk: 1.2002, time: 1 };

  it('is a tick of the leader’s book while the market is open', () => {
    const { ctx, book, ticks } = setup(true, true);
    deliverSimulatedQuote(ctx, quote);
    expect(book.get('EUR_USD')).toEqual(quote);
    expect(ticks).toEqual([quote]);
  });

  it('is left to the leader by a follower while the market is open (its tick comes back over the bus)', () => {
    const { ctx, book, ticks } = setup(true, false);
    deliverSimulatedQuote(ctx, quote);
    expect(book.get('EUR_USD')).toBeUndefined();
    expect(ticks).toEqual([]);
  });

  it('is held without a tick on every instance while the market is closed', () => {
    for (const leader of [true, false]) {
      const { ctx, book, ticks } = setup(false, leader);
      deliverSimulatedQuote(ctx, quote);
      expect(book.get('EUR_USD')).toEqual(quote);
      expect(ticks).toEqual([]);
    }
  });
});
