import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  createTestApp,
  DEMO,
  ledgerAndBalance,
  newVerifiedCustomer,
  signIn,
  type TestApp,
} from '../../../test/helpers.ts';
import { profitLoss } from '@platform/domain';
import { auditLogs, ledgerEntries, orders, userProfiles, users } from '../../db/schema.ts';

let t: TestApp;
let admin: string;
let manager: string;
let client: string;
let clientId: number;
let walletId: number;

const price = (bid: number) =>
  t.ctx.market.book.apply([
    { name: 'EUR_USD', bid, ask: bid + 0.0002, closeoutBid: bid, closeoutAsk: bid + 0.0002, time: Date.now() },
  ]);
const call = (cookie: string | undefined, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url: `/api${url}`,
    headers: cookie ? { cookie } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
async function open(): Promise<number> {
  price(1.1);
  const res = await call(client, 'POST', '/dashboard/orders', { type: 'buy', instrument: 'EUR_USD', amount: '10000' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().order.id as number;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, DEMO.admin);
  manager = await signIn(t.app, DEMO.manager);
  client = await signIn(t.app, DEMO.client);
  const [u] = await t.ctx.db.select().from(users).where(eq(users.email, DEMO.client));
  clientId = u.id;
  walletId = u.activeBalanceId!;
});
afterAll(() => t.close());

describe('back-office trades', () => {
  it('lists all, open and closed trades with the user, wallet mode and figures; a manager sees their customers only', async () => {
    const id = await open();
    const all = (await call(admin, 'GET', '/admin/trades/api/all')).json();
    const row = all.data.find((r: { id: number }) => r.id === id);
    expect(row).toMatchObject({
      user: { id: clientId, email: DEMO.client },
      balance: { mode: 'demo', currency: 'USD' },
      type: 'buy',
      instrument: 'EUR_USD',
      close_time: null,
    });
    expect((await call(admin, 'GET', '/admin/trades/api/open')).json().data.map((r: { id: number }) => r.id)).toContain(
      id,
    );
    expect(
      (await call(admin, 'GET', '/admin/trades/api/closed')).json().data.map((r: { id: number }) => r.id),
    ).not.toContain(id);
    expect(
      (await call(admin, 'GET', `/admin/trades/api/all/${clientId}`))
        .json()
        .data.every((r: { user: { id: number } }) => r.user.id === clientId),
    ).toBe(true);
    // The demo manager looks after the demo client; another customer's trades stay out of their lists.
    expect(
      (await call(manager, 'GET', '/admin/trades/api/all')).json().data.map((r: { id: number }) => r.id),
    ).toContain(id);
    const other = await newVerifiedCustomer(t, 'notmanaged');
    expect((await call(manager, 'GET', `/admin/trades/api/all/${other.id}`)).json().data).toEqual([]);
    expect((await call(await signIn(t.app, DEMO.agent), 'GET', '/admin/trades/api/all')).statusCode).toBe(403);
    expect((await call(admin, 'GET', '/admin/trades/api/everything')).statusCode).toBe(400);
    const csv = await call(admin, 'GET', '/admin/trades/api/all?format=csv');
    expect(csv.body.split('\r\n')[0]).toContain('Open Rate');
  });

  it("shows an open trade's floating P/L from the risk engine, following the price; none once closed", async () => {
    const id = await open();
    const [o] = await t.ctx.db.select().from(orders).where(eq(orders.id, id));
    price(1.105);
    const expected = profitLoss({
      side: 'buy',
      openRate: o.openRate,
      closeRate: '1.105',
      amount: o.tradeAmount,
      spread: o.spread,
      conversionRate: '1',
    });
    await expect.poll(() => t.ctx.risk.positionPl(id)).toBeCloseTo(expected.toNumber(), 6);
    const rowOf = async (list: string) =>
      (await call(admin, 'GET', `/admin/trades/api/${list}`)).json().data.find((r: { id: number }) => r.id === id);
    const row = await rowOf('open');
    expect(row.pro_loss).toBeNull();
    expect(row.live_pl).toMatch(/^-?\d+\.\d{8}$/);
    expect(Number(row.live_pl)).toBeCloseTo(t.ctx.risk.positionPl(id)!, 6);
    expect(Number(row.live_pl)).toBeCloseTo(expected.toNumber(), 6);
    // The manager's list carries the same figure; the price moves, so does the figure.
    expect((await rowOf('all')).live_pl).toBe(row.live_pl);
    price(1.095);
    await expect.poll(async () => Number((await rowOf('open')).live_pl)).toBeLessThan(0);
    await call(admin, 'POST', '/admin/trades/close', { orderId: id });
    const closed = await rowOf('closed');
    expect(closed.live_pl).toBeNull();
    expect(closed.pro_loss).not.toBeNull();
  });

  it("closes at the server price through the client's close, once, audited", async () => {
    const id = await open();
    price(1.105);
    const res = await call(admin, 'POST', '/admin/trades/close', { orderId: id, instrument: 'EUR_USD' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Order closed successfully', trade: { id, close_rate: '1.10500000' } });
    const [o] = await t.ctx.db.select().from(orders).where(eq(orders.id, id));
    expect(o.closeReason).toBe('admin');
    expect((await call(admin, 'POST', '/admin/trades/close', { orderId: id })).statusCode).toBe(409);
    expect(
      await t.ctx.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, 'order.close'), eq(auditLogs.subjectId, id))),
    ).toHaveLength(1);
    const { ledger, balance } = await ledgerAndBalance(t, walletId);
    expect(ledger).toBe(balance);
  });

  it('edits a closed trade: its P/L is computed again and the difference goes through the ledger', async () => {
    const id = await open();
    price(1.102);
    await call(admin, 'POST', '/admin/trades/close', { orderId: id });
    const [before] = await t.ctx.db.select().from(orders).where(eq(orders.id, id));
    const res = await call(admin, 'PUT', `/admin/trades/${id}`, {
      closeRate: Number(before.closeRate) + 0.001,
      openTime: '2026-11-01T10:30',
    });
    expect(res.statusCode, res.body).toBe(200);
    const [after] = await t.ctx.db.select().from(orders).where(eq(orders.id, id));
    // 10,000 units × 0.001 more = 10 more profit.
    expect(Number(after.proLoss) - Number(before.proLoss)).toBeCloseTo(10, 6);
    expect(after.createdAt.toISOString()).toBe('2026-11-01T10:30:00.000Z');
    const [entry] = await t.ctx.db
      .select()
      .from(ledgerEntries)
      .where(
        and(eq(ledgerEntries.refType, 'order'), eq(ledgerEntries.refId, id), eq(ledgerEntries.kind, 'adjustment')),
      );
    expect(Number(entry.amount)).toBeCloseTo(10, 6);
    expect(entry.note).toContain(`Order #${id} edited`);
    const { ledger, balance } = await ledgerAndBalance(t, walletId);
    expect(ledger).toBe(balance);
    const [audit] = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'order.update'), eq(auditLogs.subjectId, id)));
    expect(audit.before).toMatchObject({ close_rate: before.closeRate });
  });

  it('edits only take profit, stop loss and open time of an open trade', async () => {
    const id = await open();
    expect((await call(admin, 'PUT', `/admin/trades/${id}`, { closeRate: 1.2 })).statusCode).toBe(400);
    expect((await call(admin, 'PUT', `/admin/trades/${id}`, { openRate: 1.05 })).statusCode).toBe(400);
    const ok = await call(admin, 'PUT', `/admin/trades/${id}`, { profit: 1.2, loss: 1.05 });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().trade).toMatchObject({ profit: '1.20000000', loss: '1.05000000' });
    expect((await call(admin, 'PUT', `/admin/trades/${id}`, { loss: 1.5 })).statusCode).toBeGreaterThanOrEqual(400);
    expect((await call(admin, 'PUT', `/admin/trades/${id}`, { openRate: 1e13 })).statusCode).toBe(400);
    expect((await call(admin, 'DELETE', `/admin/trades/${id}`)).statusCode).toBe(409);
    await call(admin, 'POST', '/admin/trades/close', { orderId: id });
  });

  it('voids a closed trade once, reversing what it booked, and keeps the row', async () => {
    const id = await open();
    price(1.104);
    await call(admin, 'POST', '/admin/trades/close', { orderId: id });
    const before = await ledgerAndBalance(t, walletId);
    const [res1, res2] = await Promise.all([
      call(admin, 'DELETE', `/admin/trades/${id}`),
      call(admin, 'DELETE', `/admin/trades/${id}`),
    ]);
    expect([res1.statusCode, res2.statusCode].sort()).toEqual([200, 404]);
    const [o] = await t.ctx.db.select().from(orders).where(eq(orders.id, id));
    expect(o.voidedAt).not.toBeNull();
    const entries = await t.ctx.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.refType, 'order'), eq(ledgerEntries.refId, id)));
    expect(entries.reduce((a, e) => a + Number(e.amount), 0)).toBeCloseTo(0, 8);
    const after = await ledgerAndBalance(t, walletId);
    expect(after.ledger).toBe(after.balance);
    expect(Number(after.balance)).not.toBe(Number(before.balance));
    // Gone from the lists, the client's included.
    expect(
      (await call(admin, 'GET', '/admin/trades/api/all')).json().data.map((r: { id: number }) => r.id),
    ).not.toContain(id);
    expect(
      (await call(client, 'GET', '/dashboard/orders?status=closed&limit=100'))
        .json()
        .data.map((r: { id: number }) => r.id),
    ).not.toContain(id);
    expect(
      await t.ctx.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, 'order.void'), eq(auditLogs.subjectId, id))),
    ).toHaveLength(1);
  });

  it("answers 404 for trades outside a manager's customers and for unknown ids", async () => {
    const other = await newVerifiedCustomer(t, 'trader');
    await t.ctx.db.update(userProfiles).set({ managerId: null }).where(eq(userProfiles.userId, other.id));
    const otherCookie = await signIn(t.app, other.email, other.password);
    price(1.1);
    const placed = await call(otherCookie, 'POST', '/dashboard/orders', {
      type: 'buy',
      instrument: 'EUR_USD',
      amount: '1000',
    });
    expect(placed.statusCode, placed.body).toBe(200);
    const id = placed.json().order.id;
    expect((await call(manager, 'POST', '/admin/trades/close', { orderId: id })).statusCode).toBe(404);
    expect((await call(manager, 'PUT', `/admin/trades/${id}`, { profit: 1.3 })).statusCode).toBe(404);
    expect((await call(manager, 'DELETE', `/admin/trades/${id}`)).statusCode).toBe(404);
    expect((await call(admin, 'DELETE', '/admin/trades/99999999')).statusCode).toBe(404);
    expect((await call(undefined, 'DELETE', `/admin/trades/${id}`)).statusCode).toBe(401);
  });

  it('counts a very long list only a window past the page, and says so; exact below it', async () => {
    const { sql } = await import('drizzle-orm');
    const [{ n: before }] = (
      (await t.ctx.db.execute(
        sql`select count(*)::int as n from orders where voided_at is null and user_id = ${clientId}`,
      )) as unknown as { rows: Array<{ n: number }> }
    ).rows;
    await t.ctx.db.execute(sql`
      insert into orders (user_id, balance_id, balance_mode, balance_currency, instrument_id, instrument, base_symbol, quote_symbol, kind, type, trade_amount,
                          open_rate, open_bid, open_ask, spread, exchange_rate, margin_used, leverage, close_rate, close_time, pro_loss, close_reason)
      select ${clientId}::int, ${walletId}::int, 'demo', 'USD', i.id, i.name, 'EUR', 'USD', 'forex', 'buy', 1000, 1.1, 1.0999, 1.1001, 0.2, 1, 11, 100, 1.1, now(), 0, 'manual'
        from generate_series(1, 10100) g, instruments i where i.name = 'EUR_USD'`);
    const total = before + 10_100;
    const first = (await call(admin, 'GET', `/admin/trades/api/all/${clientId}?page=1&limit=15`)).json();
    expect(first.meta).toEqual({ total: 10_015, per_page: 15, page: 1, total_capped: true });
    const deep = (await call(admin, 'GET', `/admin/trades/api/all/${clientId}?page=600&limit=15`)).json();
    expect(deep.meta.total).toBe(total);
    expect(deep.meta.total_capped).toBeUndefined();
    expect(deep.data).toHaveLength(15);

    // The export walks the same list by id: every row once, newest first, across eleven batches.
    const exported = await t.app.inject({
      method: 'GET',
      url: `/api/admin/trades/api/all/${clientId}?format=csv`,
      headers: { cookie: admin },
    });
    expect(exported.statusCode).toBe(200);
    const ids = exported.body
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .slice(1)
      .filter(Boolean)
      .map((line) => Number(line.split(',')[0]));
    expect(ids).toHaveLength(total);
    expect(ids.every((id, i) => i === 0 || id < ids[i - 1])).toBe(true);
    expect(ids[0]).toBe(first.data[0].id);
    const last = (await call(admin, 'GET', `/admin/trades/api/all/${clientId}?page=${Math.ceil(total / 15)}&limit=15`))
      .json()
      .data.map((r: { id: number }) => r.id);
    expect(ids.slice(-last.length)).toEqual(last);
  });
});
