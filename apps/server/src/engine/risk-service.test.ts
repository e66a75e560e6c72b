import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { dec } from '@platform/domain';
import { createTestApp, DEMO, resetWalletTo, signIn, type TestApp } from '../../test/helpers.ts';
import { balances, ledgerEntries, notifications, orders, users } from '../db/schema.ts';
import { RiskService } from './risk-service.ts';

let t: TestApp;
let client: string;
let walletId: number;
let userId: number;

const price = (name: string, bid: number, ask: number) =>
  t.ctx.market.book.apply([{ name, bid, ask, closeoutBid: bid, closeoutAsk: ask, time: Date.now() }]);
const risk = () => t.ctx.risk as RiskService;
const settle = () => risk().idle();

async function place(payload: Record<string, unknown>) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/dashboard/orders',
    headers: { cookie: client },
    payload,
  });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json().order as { id: number };
}
const orderRow = async (id: number) => (await t.ctx.db.select().from(orders).where(eq(orders.id, id)))[0];
async function wallet() {
  return (await t.ctx.db.select().from(balances).where(eq(balances.id, walletId)))[0];
}
async function ledgerSum() {
  const [r] = await t.ctx.db
    .select({ s: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)` })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.balanceId, walletId));
  return dec(r.s);
}

beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, DEMO.client);
  const [u] = await t.ctx.db.select().from(users).where(eq(users.email, DEMO.client));
  userId = u.id;
  walletId = u.activeBalanceId!;
});
afterAll(() => t.close());

beforeEach(async () => {
  price('EUR_USD', 1.1, 1.1002);
  price('XAU_USD', 2650, 2650.3);
  const open = await t.ctx.db.select({ id: orders.id }).from(orders).where(sql`${orders.closeTime} is null`);
  for (const o of open)
    await t.app.inject({
      method: 'POST',
      url: '/api/dashboard/orders/close',
      headers: { cookie: client },
      payload: { orderId: o.id },
    });
  await settle();
  await resetWalletTo(t, walletId, '10000');
  risk().engine.setWalletBalance(walletId, 10000);
});

describe('take-profit and stop-loss, closed by the server', () => {
  it('closes a buy at the bid when the bid falls to its stop-loss, and tells the client', async () => {
    const o = await place({ type: 'buy', instrument: 'EUR_USD', amount: 10000, loss: 1.095 });
    price('EUR_USD', 1.0951, 1.0953);
    await settle();
    expect((await orderRow(o.id)).closeTime).toBeNull();
    price('EUR_USD', 1.095, 1.0952);
    await settle();
    const row = await orderRow(o.id);
    expect(row.closeReason).toBe('stop_loss');
    expect(dec(row.closeRate!).toString()).toBe('1.095');
    // (1.095 − 1.1002) × 10000 − 2 = −54
    expect(dec(row.proLoss!).toString()).toBe('-54');
    const [n] = await t.ctx.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, userId))
      .orderBy(desc(notifications.id))
      .limit(1);
    expect(n.title).toBe('Stop loss reached');
    expect(n.description).toContain(`#${o.id}`);
    const w = await wallet();
    expect(dec(w.balance).toString()).toBe('9946');
    expect(await ledgerSum()).toEqual(dec(w.balance));
    expect(dec(w.margin).toString()).toBe('0');
  });

  it('closes a buy at its take-profit when the bid rises to it', async () => {
    const o = await place({ type: 'buy', instrument: 'EUR_USD', amount: 10000, profit: 1.11 });
    price('EUR_USD', 1.11, 1.1102);
    await settle();
    const row = await orderRow(o.id);
    expect(row.closeReason).toBe('take_profit');
    expect(dec(row.proLoss!).toString()).toBe('96'); // (1.11 − 1.1002) × 10000 − 2
  });

  it('closes a sell at the ask: take-profit when the ask falls to it, stop-loss when it rises to it', async () => {
    const tp = await place({ type: 'sell', instrument: 'EUR_USD', amount: 10000, profit: 1.09 });
    const sl = await place({ type: 'sell', instrument: 'EUR_USD', amount: 10000, loss: 1.12 });
    price('EUR_USD', 1.0898, 1.09);
    await settle();
    expect((await orderRow(tp.id)).closeReason).toBe('take_profit');
    expect((await orderRow(sl.id)).closeTime).toBeNull(); // a falling ask never stops out a sell
    price('EUR_USD', 1.1198, 1.12);
    await settle();
    const row = await orderRow(sl.id);
    expect(row.closeReason).toBe('stop_loss');
    expect(dec(row.closeRate!).toString()).toBe('1.12');
  });

  it('closes at once a level moved beyond the market', async () => {
    const o = await place({ type: 'buy', instrument: 'EUR_USD', amount: 1000 });
    price('EUR_USD', 1.098, 1.0982);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/dashboard/orders/${o.id}`,
      headers: { cookie: client },
      payload: { loss: 1.099 },
    });
    expect(res.statusCode).toBe(200);
    await settle();
    expect((await orderRow(o.id)).closeReason).toBe('stop_loss');
  });
});

describe('stop-out', () => {
  it('closes the worst position first at the first tick at or below the plan stop-out, until the wallet is safe', async () => {
    const eur = await place({ type: 'buy', instrument: 'EUR_USD', amount: 500000 }); // margin 5,501
    const gold = await place({ type: 'buy', instrument: 'XAU_USD', amount: 40 }); // margin 2,120.24
    // Equity 10,000 − 6,050 − 24 = 3,926: 51.5 % of 7,621.24, above the Basic plan's 50 %.
    price('EUR_USD', 1.0885, 1.0887);
    await settle();
    expect((await orderRow(eur.id)).closeTime).toBeNull();
    // Equity 3,776: 49.5 %.
    price('EUR_USD', 1.088, 1.0882);
    await settle();
    const closed = await orderRow(eur.id);
    expect(closed.closeReason).toBe('stop_out');
    expect(dec(closed.proLoss!).toString()).toBe('-6200');
    expect((await orderRow(gold.id)).closeTime).toBeNull();
    const w = await wallet();
    expect(dec(w.balance).toString()).toBe('3800');
    expect(dec(w.margin).toString()).toBe('2120.24');
    expect(await ledgerSum()).toEqual(dec(w.balance));
    // The close's own notice, then the stop-out's report once no further close is needed.
    const last = await t.ctx.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, userId))
      .orderBy(desc(notifications.id))
      .limit(2);
    expect(last.map((n) => n.title)).toEqual(['Stop-out report', 'Stop out']);
  });

  it('never leaves the wallet below zero after a price gap', async () => {
    await place({ type: 'buy', instrument: 'EUR_USD', amount: 800000 }); // margin 8,801.60
    price('EUR_USD', 1.08, 1.0802); // −16,160 − 160 spread = −16,320 in one gap
    await settle();
    const w = await wallet();
    expect(dec(w.balance).toString()).toBe('0');
    expect(dec(w.margin).toString()).toBe('0');
    expect(await ledgerSum()).toEqual(dec(0));
    const [p] = await t.ctx.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.balanceId, walletId), eq(ledgerEntries.kind, 'negative_balance_protection')));
    expect(dec(p.amount).toString()).toBe('6320');
  });
});

describe('restart', () => {
  it('picks up every open position from the database', async () => {
    await place({ type: 'buy', instrument: 'EUR_USD', amount: 1000, loss: 1.05 });
    await place({ type: 'sell', instrument: 'XAU_USD', amount: 1 });
    const fresh = new RiskService(() => t.ctx);
    await fresh.start();
    expect(fresh.engine.size).toBe(2);
    expect(fresh.openPositions(walletId)).toBe(2);
    await fresh.stop();
  });
});
