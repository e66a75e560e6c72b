import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { dec } from '@platform/domain';
import {
  createTestApp,
  DEMO,
  newVerifiedCustomer,
  resetWalletTo,
  signIn,
  type TestApp,
} from '../../../test/helpers.ts';
import { orders, pendingOrders, pricingPlans, users } from '../../db/schema.ts';
import { closeOrder } from './close-order.ts';
import { depthKit } from './depth-testing.ts';
import type { PendingService } from './pending/pending-service.ts';
import { forgetTrader } from './trader.ts';

let t: TestApp;
let admin: string;
let trader: string;
let traderId: number;
let walletId: number;
const kit = depthKit(() => t);
const { price, close, row, ledgerOf, consistent, risk } = kit;

const order = (payload: Record<string, unknown>, cookie = trader) =>
  kit.inject('POST', '/dashboard/orders', cookie, { instrument: 'EUR_USD', ...payload });
const openPositions = (balanceId = walletId) =>
  t.ctx.db
    .select()
    .from(orders)
    .where(and(eq(orders.balanceId, balanceId), isNull(orders.closeTime)));

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, DEMO.admin);
  const made = await kit.inject('POST', '/admin/pricing', admin, {
    name: 'Netting Pro',
    price: '0',
    forexLeverage: 100,
    retail: false,
    accountType: 'netting',
  });
  expect(made.statusCode, made.body).toBe(200);
  const [plan] = await t.ctx.db.select().from(pricingPlans).where(eq(pricingPlans.name, 'Netting Pro'));
  expect(plan.accountType).toBe('netting');
  const list = await kit.inject('GET', '/dashboard/pricing', admin);
  expect(list.json().data.find((p: { id: number }) => p.id === plan.id).account_type).toBe('netting');
  const who = await newVerifiedCustomer(t, 'netting');
  traderId = who.id;
  await t.ctx.db.update(users).set({ pricingTableId: plan.id }).where(eq(users.id, who.id));
  forgetTrader(t.ctx.db, who.id);
  trader = await signIn(t.app, who.email, who.password);
  const [u] = await t.ctx.db.select().from(users).where(eq(users.id, who.id));
  walletId = u.activeBalanceId!;
  const me = await kit.inject('GET', '/auth/user', trader);
  expect(me.json().user.pricingTable.account_type).toBe('netting');
});
afterAll(() => t.close());

beforeEach(async () => {
  const open = await t.ctx.db.select({ id: orders.id }).from(orders).where(sql`${orders.closeTime} is null`);
  for (const o of open) await closeOrder(t.ctx, { orderId: o.id, reason: 'admin' });
  await risk().idle();
  await resetWalletTo(t, walletId, '10000');
  risk().engine.setWalletBalance(walletId, 10000);
  price('EUR_USD', 1.1, 1.1002);
});

describe('netting accounts', () => {
  it('reduces the position with an order the other way, at the order’s price, then closes it', async () => {
    const buy = await order({ type: 'buy', amount: '10000' });
    expect(buy.statusCode).toBe(200);
    const pos = buy.json().order;
    price('EUR_USD', 1.105, 1.1052);
    const sell = await order({ type: 'sell', amount: '4000', profit: '1.01' });
    expect(sell.statusCode, sell.body).toBe(200);
    const deal = sell.json().order;
    expect(deal).toMatchObject({ partial_of: pos.id, type: 'buy' });
    expect(dec(deal.trade_amount).toString()).toBe('4000');
    expect(dec(deal.close_rate).toString()).toBe('1.105');
    expect(dec(deal.pro_loss).toString()).toBe('18.4');
    expect((await ledgerOf(deal.id)).map((e) => dec(e.amount).toString())).toEqual(['19.2', '-0.8']);
    const open = await openPositions();
    expect(open.map((o) => [o.id, dec(o.tradeAmount).toString(), o.takeProfit])).toEqual([[pos.id, '6000', null]]);
    let w = await consistent(walletId);
    expect(dec(w.balance).toString()).toBe('10018.4');

    const rest = await order({ type: 'sell', amount: '6000' });
    expect(rest.statusCode).toBe(200);
    expect(rest.json().order).toMatchObject({ id: pos.id, partial_of: null });
    expect(dec(rest.json().order.pro_loss).toString()).toBe('27.6');
    expect(await openPositions()).toEqual([]);
    w = await consistent(walletId);
    expect(dec(w.balance).toString()).toBe('10046');
    expect(dec(w.margin).toString()).toBe('0');
    // Every deal is in the statements.
    const history = (await kit.inject('GET', '/statements/history?limit=100', trader)).json().data as Array<{
      id: number;
    }>;
    expect(history.map((h) => h.id)).toEqual(expect.arrayContaining([deal.id, pos.id]));
  });

  it('reverses it: closes the position and opens the rest the other way with the order’s levels', async () => {
    const pos = (await order({ type: 'buy', amount: '10000' })).json().order;
    price('EUR_USD', 1.099, 1.0992);
    const res = await order({ type: 'sell', amount: '15000', profit: '1.05', loss: '1.12' });
    expect(res.statusCode, res.body).toBe(200);
    const opened = res.json().order;
    expect(opened).toMatchObject({ type: 'sell', close_time: null, partial_of: null });
    expect(dec(opened.trade_amount).toString()).toBe('5000');
    expect(dec(opened.open_rate).toString()).toBe('1.099');
    expect(dec(opened.profit).toString()).toBe('1.05');
    expect(dec(opened.loss).toString()).toBe('1.12');
    expect(dec(opened.spread).toString()).toBe('1'); // 0.0002 × 5000
    expect(dec(opened.margin_used).toString()).toBe('54.95'); // 1.099 × 5000 / 100
    const closed = await row(pos.id);
    expect(closed.closeReason).toBe('manual');
    // (1.099 − 1.1002) × 10000 − 2 of spread
    expect(dec(closed.proLoss!).toString()).toBe('-14');
    expect((await openPositions()).map((o) => o.id)).toEqual([opened.id]);
    const w = await consistent(walletId);
    expect(dec(w.balance).toString()).toBe('9986');
    expect(dec(w.margin).toString()).toBe('54.95');
  });

  it('refuses an order the same way, and a reversal the wallet cannot hold, changing nothing', async () => {
    const pos = (await order({ type: 'buy', amount: '10000' })).json().order;
    const same = await order({ type: 'buy', amount: '1000' });
    expect(same.statusCode).toBe(422);
    expect(same.json().message).toMatch(/nets positions/);
    const big = await order({ type: 'sell', amount: '2000000' });
    expect(big.statusCode).toBe(422);
    expect(big.json().message).toMatch(/Insufficient/);
    expect((await openPositions()).map((o) => [o.id, dec(o.tradeAmount).toString()])).toEqual([[pos.id, '10000']]);
    const w = await consistent(walletId);
    expect(dec(w.balance).toString()).toBe('10000');
  });

  it('keeps hedging accounts as they were: an opposite order opens a position of its own', async () => {
    const client = await signIn(t.app, DEMO.client);
    const [c] = await t.ctx.db.select().from(users).where(eq(users.email, DEMO.client));
    await resetWalletTo(t, c.activeBalanceId!, '10000');
    risk().engine.setWalletBalance(c.activeBalanceId!, 10000);
    expect((await order({ type: 'buy', amount: '10000' }, client)).statusCode).toBe(200);
    expect((await order({ type: 'sell', amount: '4000' }, client)).statusCode).toBe(200);
    expect(await openPositions(c.activeBalanceId!)).toHaveLength(2);
    await consistent(c.activeBalanceId!);
  });

  it('nets a pending order’s fill the same way', async () => {
    const pos = (await order({ type: 'buy', amount: '10000' })).json().order;
    const limit = await order({ type: 'sell', amount: '3000', orderType: 'limit', price: '1.1030' });
    expect(limit.statusCode, limit.body).toBe(201);
    const pendingId = limit.json().id as number;
    price('EUR_USD', 1.1031, 1.1033);
    await (t.ctx.pending as PendingService).idle();
    await risk().idle();
    const [p] = await t.ctx.db.select().from(pendingOrders).where(eq(pendingOrders.id, pendingId));
    expect(p.status).toBe('filled');
    const deal = await row(p.orderId!);
    expect(deal.partialOf).toBe(pos.id);
    expect(dec(deal.tradeAmount).toString()).toBe('3000');
    expect(dec(deal.closeRate!).toString()).toBe('1.1031');
    expect(dec((await row(pos.id)).tradeAmount).toString()).toBe('7000');
    await consistent(walletId);
  });

  it('leaves one position after 20 concurrent orders the other way', async () => {
    const pos = (await order({ type: 'buy', amount: '10000' })).json().order;
    const answers = await Promise.all(Array.from({ length: 20 }, () => order({ type: 'sell', amount: '1000' })));
    const codes = answers.map((a) => a.statusCode);
    // Ten reduce and close the buy, one opens a sell, the others would add to it and are refused.
    expect(codes.filter((c) => c === 200)).toHaveLength(11);
    expect(codes.filter((c) => c === 422)).toHaveLength(9);
    const open = await openPositions();
    expect(open.map((o) => [o.type, dec(o.tradeAmount).toString()])).toEqual([['sell', '1000']]);
    expect((await row(pos.id)).closeTime).not.toBeNull();
    const parts = await t.ctx.db.select().from(orders).where(eq(orders.partialOf, pos.id));
    expect(parts).toHaveLength(9);
    await consistent(walletId);
    expect((await close(trader, open[0].id)).statusCode).toBe(200);
    expect(traderId).toBeGreaterThan(0);
  });
});
