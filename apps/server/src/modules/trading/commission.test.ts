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
import { ledgerEntries, orders, pricingPlans, users } from '../../db/schema.ts';
import type { PendingService } from './pending/pending-service.ts';
import { closeOrder } from './close-order.ts';
import { depthKit } from './depth-testing.ts';
import { forgetTrader } from './trader.ts';

let t: TestApp;
let admin: string;
const kit = depthKit(() => t);
const { price, close, consistent, risk } = kit;

interface Account {
  cookie: string;
  userId: number;
  walletId: number;
  planId: number;
}

/** A new customer on a plan of their own with these terms, holding 10,000 USD. */
async function account(name: string, terms: Record<string, unknown>): Promise<Account> {
  const made = await kit.inject('POST', '/admin/pricing', admin, {
    name,
    price: '0',
    forexLeverage: 100,
    retail: false,
    ...terms,
  });
  expect(made.statusCode, made.body).toBe(200);
  const [plan] = await t.ctx.db.select().from(pricingPlans).where(eq(pricingPlans.name, name));
  const who = await newVerifiedCustomer(t, 'commission');
  await t.ctx.db.update(users).set({ pricingTableId: plan.id }).where(eq(users.id, who.id));
  forgetTrader(t.ctx.db, who.id);
  const cookie = await signIn(t.app, who.email, who.password);
  const [u] = await t.ctx.db.select().from(users).where(eq(users.id, who.id));
  const walletId = u.activeBalanceId as number;
  await resetWalletTo(t, walletId, '10000');
  risk().engine.setWalletBalance(walletId, 10000);
  return { cookie, userId: who.id, walletId, planId: plan.id };
}

const commissions = (orderId: number) =>
  t.ctx.db
    .select()
    .from(ledgerEntries)
    .where(
      and(eq(ledgerEntries.refType, 'order'), eq(ledgerEntries.refId, orderId), eq(ledgerEntries.kind, 'commission')),
    )
    .orderBy(ledgerEntries.id);
const amounts = async (orderId: number) => (await commissions(orderId)).map((e) => dec(e.amount).toString());

beforeAll(async () => {
  t = await createTestApp({ MARKET_FEED: 'false' });
  admin = await signIn(t.app, DEMO.admin);
});
afterAll(() => t.close());

beforeEach(async () => {
  const open = await t.ctx.db.select({ id: orders.id }).from(orders).where(sql`${orders.closeTime} is null`);
  for (const o of open) await closeOrder(t.ctx, { orderId: o.id, reason: 'admin' });
  await risk().idle();
  price('EUR_USD', 1.1, 1.1002);
  price('BTC_USD', 60000, 60010);
});

describe('commissions of a pricing plan', () => {
  it('charges per lot at open and at close through the ledger, on the position, within the free margin', async () => {
    const a = await account('Commission both', { forexCommission: '7', commissionCharge: 'both' });
    const pos = await kit.place(a.cookie, { type: 'buy', instrument: 'EUR_USD', amount: '30000' });
    // 0.3 lot × 7 USD = 2.1 USD at open.
    expect(await amounts(pos.id)).toEqual(['-2.1']);
    expect(dec((await kit.row(pos.id)).commission).toString()).toBe('-2.1');
    expect(dec((await kit.wallet(a.walletId)).balance).toString()).toBe('9997.9');
    await consistent(a.walletId);

    const closed = await close(a.cookie, pos.id);
    expect(closed.statusCode, closed.body).toBe(200);
    expect(await amounts(pos.id)).toEqual(['-2.1', '-2.1']);
    const row = await kit.row(pos.id);
    expect(dec(row.commission).toString()).toBe('-4.2');
    // The P/L is the price's alone; the commission is beside it.
    const pl = await t.ctx.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.refId, pos.id), eq(ledgerEntries.kind, 'trade_pl')));
    expect(pl).toHaveLength(1);
    await consistent(a.walletId);
  });

  it('charges only when the plan says, on the closed part of a partial close too', async () => {
    const atOpen = await account('Commission open', { forexCommission: '5', commissionCharge: 'open' });
    const o = await kit.place(atOpen.cookie, { type: 'sell', instrument: 'EUR_USD', amount: '100000' });
    expect((await close(atOpen.cookie, o.id)).statusCode).toBe(200);
    expect(await amounts(o.id)).toEqual(['-5']);

    const atClose = await account('Commission close', { forexCommission: '5', commissionCharge: 'close' });
    const c = await kit.place(atClose.cookie, { type: 'buy', instrument: 'EUR_USD', amount: '100000' });
    expect(await amounts(c.id)).toEqual([]);
    const part = await close(atClose.cookie, c.id, '40000');
    expect(part.statusCode, part.body).toBe(200);
    const [deal] = await t.ctx.db.select().from(orders).where(eq(orders.partialOf, c.id));
    expect(await amounts(deal.id)).toEqual(['-2']);
    expect(dec(deal.commission).toString()).toBe('-2');
    expect((await close(atClose.cookie, c.id)).statusCode).toBe(200);
    expect(await amounts(c.id)).toEqual(['-3']);
    await consistent(atClose.walletId);
  });

  it('charges per million of notional in US dollars', async () => {
    const a = await account('Commission million', {
      cryptoCommission: '30',
      cryptoLeverage: 2,
      commissionBasis: 'million',
      commissionCharge: 'open',
    });
    // 0.1 BTC at 60,010 = 6,001 USD of notional: 30 × 0.006001 = 0.18003 USD.
    const o = await kit.place(a.cookie, { type: 'buy', instrument: 'BTC_USD', amount: '0.1' });
    expect(await amounts(o.id)).toEqual(['-0.18003']);
    await consistent(a.walletId);
  });

  it('prices again with the plan’s new terms when an admin changes them while the trader is remembered', async () => {
    const a = await account('Commission change', { forexCommission: '7', commissionCharge: 'open' });
    await kit.place(a.cookie, { type: 'buy', instrument: 'EUR_USD', amount: '100000' });
    const edit = await kit.inject('PUT', `/admin/pricing/${a.planId}`, admin, {
      name: 'Commission change',
      price: '0',
      forexLeverage: 100,
      retail: false,
      forexCommission: '3',
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const second = await kit.place(a.cookie, { type: 'buy', instrument: 'EUR_USD', amount: '100000' });
    expect(await amounts(second.id)).toEqual(['-3']);
    await consistent(a.walletId);
  });

  it('refuses an order whose margin and commission together pass the free margin, writing nothing', async () => {
    const a = await account('Commission costly', { forexCommission: '1000', commissionCharge: 'open' });
    await resetWalletTo(t, a.walletId, '1000');
    risk().engine.setWalletBalance(a.walletId, 1000);
    // 0.5 lot holds 550 of margin and costs 500 of commission: 1,050 > 1,000.
    const res = await kit.inject('POST', '/dashboard/orders', a.cookie, {
      type: 'buy',
      instrument: 'EUR_USD',
      amount: '50000',
    });
    expect(res.statusCode).toBe(422);
    const open = await t.ctx.db
      .select()
      .from(orders)
      .where(and(eq(orders.balanceId, a.walletId), isNull(orders.closeTime)));
    expect(open).toEqual([]);
    await consistent(a.walletId);
  });

  it('charges the open commission when a pending order fills', async () => {
    const a = await account('Commission pending', { forexCommission: '7', commissionCharge: 'both' });
    const placed = await kit.inject('POST', '/dashboard/orders', a.cookie, {
      type: 'buy',
      instrument: 'EUR_USD',
      amount: 100000,
      orderType: 'limit',
      price: '1.0995',
      expiry: 'gtc',
      profit: null,
      loss: null,
    });
    expect(placed.statusCode, placed.body).toBe(201);
    price('EUR_USD', 1.0992, 1.0994);
    await (t.ctx.pending as PendingService).idle();
    const [pos] = await t.ctx.db
      .select()
      .from(orders)
      .where(eq(orders.pendingOrderId, placed.json().id as number));
    expect(await amounts(pos.id)).toEqual(['-7']);
    await consistent(a.walletId);
  });

  it('charges a netting account the close of the netted part and the opening of the reversal', async () => {
    const a = await account('Commission netting', {
      forexCommission: '7',
      commissionCharge: 'both',
      accountType: 'netting',
    });
    const pos = await kit.place(a.cookie, { type: 'buy', instrument: 'EUR_USD', amount: '100000' });
    expect(await amounts(pos.id)).toEqual(['-7']);
    const reversal = await kit.place(a.cookie, { type: 'sell', instrument: 'EUR_USD', amount: '150000' });
    // The position closes whole (7 at close), the rest opens the other way (0.5 lot: 3.5 at open).
    expect(await amounts(pos.id)).toEqual(['-7', '-7']);
    expect(await amounts(reversal.id)).toEqual(['-3.5']);
    expect(dec((await kit.row(reversal.id)).commission).toString()).toBe('-3.5');
    await consistent(a.walletId);
  });
});
