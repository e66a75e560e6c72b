import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { dec } from '@platform/domain';
import {
  createTestApp,
  DEMO,
  newVerifiedCustomer,
  resetWalletTo,
  signIn,
  type TestApp,
} from '../../../../test/helpers.ts';
import { notifications, orders, pendingOrders, pricingPlans, users } from '../../../db/schema.ts';
import { statementsOf, type Statement } from '../../../db/statements.ts';
import { depthKit } from '../depth-testing.ts';
import { forgetTrader } from '../trader.ts';
import { chunksByWallet, type PendingService } from './pending-service.ts';
import type { PendingFacts } from './pending-facts.ts';

let t: TestApp;
const kit = depthKit(() => t);
const service = () => t.ctx.pending as PendingService;

interface Trader {
  cookie: string;
  userId: number;
  walletId: number;
}

async function trader(prefix: string, balance: string, planId?: number): Promise<Trader> {
  const who = await newVerifiedCustomer(t, prefix);
  if (planId) {
    await t.ctx.db.update(users).set({ pricingTableId: planId }).where(eq(users.id, who.id));
    forgetTrader(t.ctx.db, who.id);
  }
  const cookie = await signIn(t.app, who.email, who.password);
  const [u] = await t.ctx.db.select().from(users).where(eq(users.id, who.id));
  const walletId = u.activeBalanceId as number;
  await resetWalletTo(t, walletId, balance);
  kit.risk().engine.setWalletBalance(walletId, Number(balance));
  return { cookie, userId: who.id, walletId };
}

async function pending(who: Trader, payload: Record<string, unknown>): Promise<number> {
  const res = await kit.inject('POST', '/dashboard/orders', who.cookie, {
    instrument: 'EUR_USD',
    amount: 1000,
    profit: null,
    loss: null,
    expiry: 'gtc',
    ...payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}

beforeAll(async () => {
  t = await createTestApp({ MARKET_FEED: 'false' });
});
afterAll(() => t.close());

describe('filling the orders one tick reaches, in batches', () => {
  it('fills every order of several wallets in one statement, each once, and leaves the rest to the one-order path', async () => {
    kit.price('EUR_USD', 1.1, 1.1002);
    const admin = await signIn(t.app, DEMO.admin);
    const made = await kit.inject('POST', '/admin/pricing', admin, {
      name: 'Batch Netting',
      price: '0',
      forexLeverage: 100,
      retail: false,
      accountType: 'netting',
    });
    expect(made.statusCode, made.body).toBe(200);
    const [plan] = await t.ctx.db.select().from(pricingPlans).where(eq(pricingPlans.name, 'Batch Netting'));
    const rich = await trader('batch-rich', '10000');
    const other = await trader('batch-other', '10000');
    // 1,000 EUR/USD at 1.0994 with 1:100 holds 10.994 (11 rounded up): two fit in 25, a third does not.
    const poor = await trader('batch-poor', '25');
    const netting = await trader('batch-netting', '10000', plan.id);

    const richIds = [];
    for (let k = 0; k < 4; k++) richIds.push(await pending(rich, { type: 'buy', orderType: 'limit', price: '1.0995' }));
    const otherIds = [await pending(other, { type: 'sell', orderType: 'stop', price: '1.0996', profit: '1.08' })];
    const poorIds = [];
    for (let k = 0; k < 3; k++) poorIds.push(await pending(poor, { type: 'buy', orderType: 'limit', price: '1.0995' }));
    const nettingId = await pending(netting, { type: 'buy', orderType: 'limit', price: '1.0995' });
    // An OCO pair the same tick reaches on both sides: the first fills, its partner is cancelled.
    const ocoBuy = await pending(other, { type: 'buy', orderType: 'limit', price: '1.0995' });
    const ocoSell = await pending(other, { type: 'sell', orderType: 'stop', price: '1.0996' });
    const link = await kit.inject('POST', '/dashboard/pending-orders/oco', other.cookie, { ids: [ocoBuy, ocoSell] });
    expect(link.statusCode, link.body).toBe(200);

    const runs = new Map<string, number>();
    const runner = statementsOf(t.ctx.db);
    const rows = runner.rows.bind(runner);
    runner.rows = <T>(s: Statement, values: unknown[]) => {
      runs.set(s.name, (runs.get(s.name) ?? 0) + 1);
      return rows<T>(s, values);
    };
    const errors: unknown[] = [];
    service().onError = (err) => errors.push(err);
    try {
      kit.price('EUR_USD', 1.0992, 1.0994);
      await service().idle();
      await kit.risk().idle();
    } finally {
      runner.rows = rows;
      service().onError = () => {};
    }
    expect(errors).toEqual([]);
    // One batch for the tick; the netting order, the poor wallet's third and the OCO partner went one at a time.
    expect(runs.get('pending_fill_batch')).toBe(1);

    const all = await t.ctx.db
      .select()
      .from(pendingOrders)
      .where(inArray(pendingOrders.id, [...richIds, ...otherIds, ...poorIds, nettingId, ocoBuy, ocoSell]));
    const status = new Map(all.map((r) => [r.id, r]));
    for (const id of [...richIds, ...otherIds, poorIds[0], poorIds[1], nettingId, ocoBuy])
      expect(status.get(id)?.status, `order ${id}`).toBe('filled');
    expect(status.get(poorIds[2])).toMatchObject({ status: 'cancelled' });
    expect(status.get(poorIds[2])?.reason).toMatch(/^Not filled: .*margin/i);
    expect(status.get(ocoSell)).toMatchObject({
      status: 'cancelled',
      reason: `Cancelled: its OCO order #${ocoBuy} filled`,
    });

    // Buys at the tick's ask, the sell stop at its bid; each fill once, with its owner told.
    const filledIds = [...richIds, ...otherIds, poorIds[0], poorIds[1], nettingId, ocoBuy];
    const positions = await t.ctx.db.select().from(orders).where(inArray(orders.pendingOrderId, filledIds));
    expect(positions).toHaveLength(filledIds.length);
    for (const p of positions) {
      expect(dec(p.openRate).toString()).toBe(p.type === 'buy' ? '1.0994' : '1.0992');
      expect(status.get(p.pendingOrderId as number)?.orderId).toBe(p.id);
    }
    expect(positions.find((p) => p.pendingOrderId === otherIds[0])?.takeProfit).toBe(dec('1.08').toFixed(8));
    for (const who of [rich, other, poor, netting]) {
      const told = await t.ctx.db.select().from(notifications).where(eq(notifications.userId, who.userId));
      const mine = positions.filter((p) => p.userId === who.userId);
      for (const p of mine)
        expect(
          told.filter((n) => n.description?.includes(`order #${p.pendingOrderId} filled at`)),
          `notice of ${p.pendingOrderId}`,
        ).toHaveLength(1);
      await kit.consistent(who.walletId);
    }
    expect(
      service()
        .waitingIds()
        .filter((id) => status.has(id)),
    ).toEqual([]);
  });

  it('cuts a burst into chunks that each hold every order of their wallets', () => {
    const facts = (id: number, walletId: number) => ({ id, walletId }) as PendingFacts;
    const burst = [facts(1, 3), facts(2, 1), facts(3, 3), facts(4, 2), facts(5, 1), facts(6, 2), facts(7, 4)];
    const chunks = chunksByWallet(burst, 2);
    expect(chunks.map((c) => c.map((f) => f.id))).toEqual([[2, 5], [4, 6], [1, 3], [7]]);
    expect(chunksByWallet(burst, 3).map((c) => c.map((f) => f.walletId))).toEqual([
      [1, 1, 2, 2],
      [3, 3, 4],
    ]);
    expect(chunksByWallet([], 10)).toEqual([]);
  });
});
