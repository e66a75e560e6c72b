import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { dec } from '@platform/domain';
import {
  createTestApp,
  DEMO,
  ledgerAndBalance,
  newVerifiedCustomer,
  resetWalletTo,
  signIn,
  type TestApp,
} from '../../../../test/helpers.ts';
import { auditLogs, notifications, orders, pendingOrders, users } from '../../../db/schema.ts';
import type { RiskService } from '../../../engine/risk-service.ts';
import { closeOrder } from '../close-order.ts';
import { PendingService } from './pending-service.ts';

let t: TestApp;
let client: string;
let admin: string;
let clientId: number;
let walletId: number;

const tick = (name: string, bid: number, ask: number) =>
  t.ctx.market.book.apply([{ name, bid, ask, closeoutBid: bid, closeoutAsk: ask, time: Date.now() }]);
const service = () => t.ctx.pending as PendingService;
const settle = async () => {
  await service().idle();
  await (t.ctx.risk as RiskService).idle();
};
const place = (payload: Record<string, unknown>, cookie = client) =>
  t.app.inject({ method: 'POST', url: '/api/dashboard/orders', headers: { cookie }, payload });
const call = (method: 'GET' | 'PUT' | 'DELETE' | 'POST', url: string, payload?: object, cookie = client) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
const row = async (id: number) => (await t.ctx.db.select().from(pendingOrders).where(eq(pendingOrders.id, id)))[0];
const positionOf = async (pendingId: number) =>
  t.ctx.db.select().from(orders).where(eq(orders.pendingOrderId, pendingId));

async function placed(payload: Record<string, unknown>, cookie = client): Promise<number> {
  const res = await place({ instrument: 'EUR_USD', amount: 1000, ...payload }, cookie);
  expect(res.statusCode, res.body).toBe(201);
  const body = res.json();
  expect(body.status).toBe('pending');
  expect(body.message).toBe('Order Placed Successfully');
  return body.id as number;
}

beforeAll(async () => {
  t = await createTestApp({ MARKET_FEED: 'false' });
  client = await signIn(t.app, DEMO.client);
  admin = await signIn(t.app, DEMO.admin);
  const [u] = await t.ctx.db.select().from(users).where(eq(users.email, DEMO.client));
  clientId = u.id;
  walletId = u.activeBalanceId!;
});
afterAll(() => t.close());

beforeEach(async () => {
  await settle();
  for (const id of service().waitingIds())
    await call('DELETE', `/api/dashboard/pending-orders/${id}`).catch(() => undefined);
  const open = await t.ctx.db.select({ id: orders.id }).from(orders).where(sql`${orders.closeTime} is null`);
  for (const o of open) await closeOrder(t.ctx, { orderId: o.id, reason: 'admin' });
  await settle();
  await resetWalletTo(t, walletId, '10000');
  (t.ctx.risk as RiskService).engine.setWalletBalance(walletId, 10000);
  tick('EUR_USD', 1.1, 1.1002);
});

describe('placing pending orders', () => {
  it('stores every kind on the right side of the market, and refuses the wrong side with a 400 and nothing stored', async () => {
    for (const [type, orderType, price, limitPrice] of [
      ['buy', 'limit', '1.09', undefined],
      ['sell', 'limit', '1.11', undefined],
      ['buy', 'stop', '1.11', undefined],
      ['sell', 'stop', '1.09', undefined],
      ['buy', 'stop_limit', '1.11', '1.105'],
      ['sell', 'stop_limit', '1.09', '1.095'],
    ] as const) {
      const id = await placed({ type, orderType, price, limitPrice, profit: null, loss: null });
      const r = await row(id);
      expect([r.side, r.orderType, r.price, r.limitPrice]).toEqual([
        type,
        orderType,
        dec(price).toFixed(8),
        limitPrice ? dec(limitPrice).toFixed(8) : null,
      ]);
    }
    const before = (await t.ctx.db.select().from(pendingOrders)).length;
    for (const [payload, field, message] of [
      [{ type: 'buy', orderType: 'limit', price: '1.1003' }, 'price', "A Buy Limit's price must be below the ask"],
      [{ type: 'sell', orderType: 'limit', price: '1.0999' }, 'price', "A Sell Limit's price must be above the bid"],
      [{ type: 'buy', orderType: 'stop', price: '1.1' }, 'price', "A Buy Stop's stop price must be above the ask"],
      [{ type: 'sell', orderType: 'stop', price: '1.1001' }, 'price', "A Sell Stop's stop price must be below the bid"],
      [{ type: 'buy', orderType: 'stop_limit', price: '1.11', limitPrice: '1.12' }, 'limitPrice', 'at or below'],
      [{ type: 'sell', orderType: 'stop_limit', price: '1.09', limitPrice: '1.08' }, 'limitPrice', 'at or above'],
      [{ type: 'buy', orderType: 'limit' }, 'price', 'Enter the order price'],
      [{ type: 'buy', orderType: 'stop_limit', price: '1.11' }, 'limitPrice', 'Enter the limit price'],
      [{ type: 'buy', orderType: 'limit', price: '1.09', profit: '1.08' }, 'profit', 'Take profit must be at least'],
      [{ type: 'sell', orderType: 'limit', price: '1.11', loss: '1.10' }, 'loss', 'Stop loss must be at least'],
      [{ type: 'buy', orderType: 'limit', price: '1.09', expiry: '2020-01-01T00:00:00Z' }, 'expiry', 'future'],
      [{ type: 'buy', orderType: 'limit', price: '1.09', expiry: 'tomorrow' }, 'expiry', 'ISO'],
      [{ type: 'buy', orderType: 'limit', price: '1e13' }, 'price', ''],
      [{ type: 'buy', orderType: 'wedge', price: '1.09' }, 'orderType', 'Unknown order type'],
    ] as const) {
      const res = await place({ instrument: 'EUR_USD', amount: 1000, ...payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toContain(message);
      expect(Object.keys(res.json().errors ?? {})).toContain(field);
    }
    expect((await t.ctx.db.select().from(pendingOrders)).length).toBe(before);
  });

  it('lists the wallet pending orders; staff and anonymous callers cannot place them', async () => {
    const id = await placed({
      type: 'buy',
      orderType: 'limit',
      price: '1.09',
      profit: '1.2',
      loss: '1.05',
      expiry: 'day',
    });
    const res = await call('GET', '/api/dashboard/pending-orders');
    expect(res.statusCode).toBe(200);
    const mine = res.json().data.find((o: { id: number }) => o.id === id);
    expect(mine).toMatchObject({
      type: 'buy',
      order_type: 'limit',
      price: '1.09000000',
      expiry: 'day',
      status: 'pending',
    });
    expect(new Date(mine.expires_at).getTime()).toBeGreaterThan(Date.now());
    expect(
      (await place({ type: 'buy', instrument: 'EUR_USD', amount: 1, orderType: 'limit', price: '1' }, admin))
        .statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/dashboard/orders', payload: {} })).statusCode).toBe(401);
  });
});

describe('triggering on the server', () => {
  it('fills a buy limit at the ask of the tick that reaches it (at its price or better), with its TP/SL', async () => {
    const id = await placed({ type: 'buy', orderType: 'limit', price: '1.09', profit: '1.2', loss: '1.05' });
    tick('EUR_USD', 1.0905, 1.0907);
    await settle();
    expect((await row(id)).status).toBe('pending');
    tick('EUR_USD', 1.0895, 1.0897);
    await settle();
    const r = await row(id);
    expect(r.status).toBe('filled');
    const [pos] = await positionOf(id);
    expect(pos).toMatchObject({
      type: 'buy',
      openRate: '1.08970000',
      takeProfit: '1.20000000',
      stopLoss: '1.05000000',
    });
    expect(r.orderId).toBe(pos.id);
    expect(r.fillPrice).toBe('1.08970000');
    const bal = await ledgerAndBalance(t, walletId);
    expect(dec(bal.balance).eq(bal.ledger)).toBe(true);
    const [n] = await t.ctx.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, clientId), eq(notifications.title, 'Pending order filled')))
      .orderBy(sql`${notifications.id} desc`)
      .limit(1);
    expect(n.description).toContain(`#${id}`);
  });

  it('fills a sell stop after a gap at the first price past it, and keeps a stop-limit whose limit the gap jumped', async () => {
    const stop = await placed({ type: 'sell', orderType: 'stop', price: '1.095' });
    const stopLimit = await placed({ type: 'sell', orderType: 'stop_limit', price: '1.094', limitPrice: '1.0945' });
    tick('EUR_USD', 1.08, 1.0802);
    await settle();
    expect((await row(stop)).status).toBe('filled');
    expect((await positionOf(stop))[0].openRate).toBe('1.08000000');
    const sl = await row(stopLimit);
    expect(sl.status).toBe('pending');
    expect(sl.activatedAt).not.toBeNull();
    // Now a sell limit at 1.0945: fills when the bid comes back up to it.
    tick('EUR_USD', 1.0946, 1.0948);
    await settle();
    expect((await row(stopLimit)).status).toBe('filled');
    expect((await positionOf(stopLimit))[0].openRate).toBe('1.09460000');
  });

  it('triggers nothing while the market is closed', async () => {
    const id = await placed({ type: 'buy', orderType: 'limit', price: '1.09' });
    const isOpen = t.ctx.market.isOpen;
    t.ctx.market.isOpen = () => false;
    try {
      tick('EUR_USD', 1.08, 1.0802);
      await settle();
      expect((await row(id)).status).toBe('pending');
    } finally {
      t.ctx.market.isOpen = isOpen;
    }
    tick('EUR_USD', 1.081, 1.0812);
    await settle();
    expect((await row(id)).status).toBe('filled');
  });

  it('cancels an order that cannot fill for lack of free margin, with the reason, and tells the client', async () => {
    await resetWalletTo(t, walletId, '10');
    (t.ctx.risk as RiskService).engine.setWalletBalance(walletId, 10);
    const id = await placed({ type: 'buy', orderType: 'limit', price: '1.09', amount: 1_000_000 });
    tick('EUR_USD', 1.0895, 1.0897);
    await settle();
    const r = await row(id);
    expect(r.status).toBe('cancelled');
    expect(r.reason).toMatch(/^Not filled: Insufficient/);
    expect(await positionOf(id)).toEqual([]);
    const [n] = await t.ctx.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, clientId), eq(notifications.title, 'Pending order cancelled')));
    expect(n.description).toContain(`#${id}`);
  });
});

describe('changing, cancelling and linking', () => {
  it('modifies price, TP/SL and expiry within the rules, and refuses a change after the fill', async () => {
    const id = await placed({ type: 'buy', orderType: 'limit', price: '1.09' });
    const ok = await call('PUT', `/api/dashboard/pending-orders/${id}`, {
      price: '1.095',
      profit: '1.2',
      expiry: 'gtc',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      message: 'Order Modified Successfully',
      price: '1.09500000',
      profit: '1.20000000',
    });
    const bad = await call('PUT', `/api/dashboard/pending-orders/${id}`, { price: '1.2' });
    expect(bad.statusCode).toBe(400);
    expect((await row(id)).price).toBe('1.09500000');
    // The book follows the change: 1.0949 reaches the new price, which the old one (1.09) would not have.
    tick('EUR_USD', 1.0947, 1.0949);
    await settle();
    expect((await row(id)).status).toBe('filled');
    const late = await call('PUT', `/api/dashboard/pending-orders/${id}`, { price: '1.08' });
    expect(late.statusCode).toBe(409);
  });

  it('cancels once: a second cancel is a 409; another client sees 404 on every call', async () => {
    const id = await placed({ type: 'buy', orderType: 'limit', price: '1.09' });
    const other = await newVerifiedCustomer(t, 'pending');
    const otherCookie = await signIn(t.app, other.email, other.password);
    expect((await call('PUT', `/api/dashboard/pending-orders/${id}`, { price: '1.08' }, otherCookie)).statusCode).toBe(
      404,
    );
    expect((await call('DELETE', `/api/dashboard/pending-orders/${id}`, undefined, otherCookie)).statusCode).toBe(404);
    const second = await placed({ type: 'buy', orderType: 'limit', price: '1.08' });
    expect(
      (await call('POST', '/api/dashboard/pending-orders/oco', { ids: [id, second] }, otherCookie)).statusCode,
    ).toBe(404);
    const first = await call('DELETE', `/api/dashboard/pending-orders/${id}`);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ status: 'cancelled', reason: 'Cancelled by the client' });
    expect((await call('DELETE', `/api/dashboard/pending-orders/${id}`)).statusCode).toBe(409);
    expect(service().waitingIds()).not.toContain(id);
  });

  it('OCO: a fill cancels its partner in the same statement; a client cancel cancels the partner', async () => {
    const a = await placed({ type: 'buy', orderType: 'limit', price: '1.09' });
    const b = await placed({ type: 'buy', orderType: 'stop', price: '1.11' });
    const link = await call('POST', '/api/dashboard/pending-orders/oco', { ids: [a, b] });
    expect(link.statusCode, link.body).toBe(200);
    expect((await call('POST', '/api/dashboard/pending-orders/oco', { ids: [a, b] })).statusCode).toBe(409);
    tick('EUR_USD', 1.0895, 1.0897);
    await settle();
    expect((await row(a)).status).toBe('filled');
    const rb = await row(b);
    expect(rb.status).toBe('cancelled');
    expect(rb.reason).toContain(`#${a}`);
    expect(service().waitingIds()).not.toContain(b);

    const c = await placed({ type: 'sell', orderType: 'limit', price: '1.1' });
    const d = await placed({ type: 'sell', orderType: 'stop', price: '1.08' });
    await call('POST', '/api/dashboard/pending-orders/oco', { ids: [c, d] });
    expect((await call('DELETE', `/api/dashboard/pending-orders/${d}`)).statusCode).toBe(200);
    expect((await row(c)).status).toBe('cancelled');
  });

  it('leaves one order in exactly one final state under 100 concurrent changes and a trigger', async () => {
    const id = await placed({ type: 'buy', orderType: 'limit', price: '1.09' });
    const changes = Array.from({ length: 100 }, (_, i) =>
      call('PUT', `/api/dashboard/pending-orders/${id}`, { price: (1.08 + (i % 10) / 1000).toFixed(4) }),
    );
    tick('EUR_USD', 1.0795, 1.0797);
    const answers = await Promise.all(changes);
    await settle();
    // Each change is applied (200), too late (409: filled), or checked against the tick's quote it came after (400:
    // a Buy Limit above the new ask) — never anything else.
    const odd = answers.filter(
      (r) => r.statusCode !== 200 && r.statusCode !== 409 && !(r.statusCode === 400 && /below the ask/.test(r.body)),
    );
    expect(odd.map((r) => `${r.statusCode} ${r.body}`)).toEqual([]);
    const r = await row(id);
    expect(r.status).toBe('filled');
    expect(await positionOf(id)).toHaveLength(1);
    const bal = await ledgerAndBalance(t, walletId);
    expect(dec(bal.balance).eq(bal.ledger)).toBe(true);
  });
});

describe('expiry, history and restart', () => {
  it('expires a dated order at its time, and a restarted service expires what passed while it was down', async () => {
    const soon = new Date(Date.now() + 1500).toISOString();
    const id = await placed({ type: 'buy', orderType: 'limit', price: '1.09', expiry: soon });
    await expect.poll(async () => (await row(id)).status, { timeout: 6000, interval: 200 }).toBe('expired');
    expect(service().waitingIds()).not.toContain(id);

    // Another order's expiry passes while no service runs: a new one (a restart) loads and expires it at once.
    const later = await placed({ type: 'buy', orderType: 'limit', price: '1.09', expiry: 'gtc' });
    await t.ctx.db
      .update(pendingOrders)
      .set({ expiry: 'date', expiresAt: new Date(Date.now() - 1000) })
      .where(eq(pendingOrders.id, later));
    const restarted = new PendingService(() => t.ctx);
    await restarted.start();
    await restarted.idle();
    await restarted.stop();
    expect((await row(later)).status).toBe('expired');
  });

  it('loads waiting orders back on a restart and fills them once', async () => {
    const id = await placed({ type: 'sell', orderType: 'limit', price: '1.11' });
    const restarted = new PendingService(() => t.ctx);
    await restarted.start();
    expect(restarted.waitingIds()).toContain(id);
    // Both services see the tick: one fill, the other finds it filled.
    tick('EUR_USD', 1.1105, 1.1107);
    await restarted.idle();
    await settle();
    await restarted.stop();
    expect(await positionOf(id)).toHaveLength(1);
  });

  it('lists filled, cancelled and expired orders with their reasons beside closed deals', async () => {
    const filled = await placed({ type: 'buy', orderType: 'limit', price: '1.0999' });
    const cancelled = await placed({ type: 'buy', orderType: 'limit', price: '1.05' });
    await call('DELETE', `/api/dashboard/pending-orders/${cancelled}`);
    tick('EUR_USD', 1.0997, 1.0999);
    await settle();
    const [pos] = await positionOf(filled);
    await call('POST', '/api/dashboard/orders/close', { orderId: pos.id });
    const res = await call('GET', '/api/dashboard/orders/history?limit=50');
    expect(res.statusCode, res.body).toBe(200);
    const entries = res.json().data as Array<{
      entry: string;
      deal?: { id: number };
      order?: { id: number; status: string; reason: string };
    }>;
    expect(entries.find((e) => e.order?.id === filled)?.order?.status).toBe('filled');
    expect(entries.find((e) => e.order?.id === cancelled)?.order?.reason).toBe('Cancelled by the client');
    expect(entries.find((e) => e.deal?.id === pos.id)).toBeTruthy();
  });
});

describe('staff', () => {
  it('lists every pending order for admins, cancels with a reason in the audit log; clients get 403', async () => {
    const id = await placed({ type: 'buy', orderType: 'limit', price: '1.09' });
    const list = await call('GET', `/api/admin/pending-orders?status=pending&userId=${clientId}`, undefined, admin);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.find((o: { id: number }) => o.id === id)).toMatchObject({ user: { email: DEMO.client } });
    expect((await call('GET', '/api/admin/pending-orders', undefined, client)).statusCode).toBe(403);
    expect((await call('POST', `/api/admin/pending-orders/${id}/cancel`, { reason: '' }, admin)).statusCode).toBe(400);
    const res = await call(
      'POST',
      `/api/admin/pending-orders/${id}/cancel`,
      { reason: 'Client asked by phone' },
      admin,
    );
    expect(res.statusCode, res.body).toBe(200);
    const r = await row(id);
    expect(r.status).toBe('cancelled');
    expect(r.reason).toBe('Cancelled by the broker: Client asked by phone');
    const [audit] = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'pending_order.cancel'), eq(auditLogs.subjectId, id)));
    expect(audit.targetUserId).toBe(clientId);
  });
});
