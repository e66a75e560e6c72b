import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { follower, memoryBuses } from '../../test/cluster-testing.ts';
import { eq } from 'drizzle-orm';
import { dec } from '@platform/domain';
import { createTestApp, DEMO, resetWalletTo, signIn, type TestApp } from '../../test/helpers.ts';
import type { ClusterBus } from '../cluster/bus.ts';
import { orders, users } from '../db/schema.ts';
import type { PendingService } from '../modules/trading/pending/pending-service.ts';
import { RiskService } from './risk-service.ts';

let t: TestApp;
let client: string;
let walletId: number;
let other: RiskService;
let busBefore: ClusterBus;

beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, DEMO.client);
  const [u] = await t.ctx.db.select().from(users).where(eq(users.email, DEMO.client));
  walletId = u.activeBalanceId!;
  await resetWalletTo(t, walletId, '10000');
  (t.ctx.risk as RiskService).engine.setWalletBalance(walletId, 10000);
  const [mine, theirs] = memoryBuses();
  busBefore = t.ctx.cluster.bus;
  t.ctx.cluster.bus = mine;
  const otherCtx = { ...t.ctx, cluster: { bus: theirs, leadership: follower() } };
  other = new RiskService(() => otherCtx);
  await other.start();
});
afterAll(async () => {
  await other.stop();
  t.ctx.cluster.bus = busBefore;
  await t.close();
});

const call = (method: 'POST' | 'PUT', url: string, payload: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: { cookie: client }, payload });
const price = (bid: number, ask: number) =>
  t.ctx.market.book.apply([{ name: 'EUR_USD', bid, ask, closeoutBid: bid, closeoutAsk: ask, time: Date.now() }]);

describe('another instance', () => {
  it('follows partial closes and trailing stops over the bus, moves nothing itself, and moves them once it leads', async () => {
    price(1.1, 1.1002);
    const placed = await call('POST', '/dashboard/orders', { type: 'buy', instrument: 'EUR_USD', amount: '10000' });
    const id = placed.json().order.id as number;
    expect(other.openPositions(walletId)).toBe(1);
    await call('PUT', `/dashboard/orders/${id}`, { trailing: { distance: '0.002', step: '0' } });
    expect(other.engine.trailingSize).toBe(1);

    price(1.105, 1.1052);
    await (t.ctx.risk as RiskService).idle();
    await other.idle();
    const [moved] = await t.ctx.db.select().from(orders).where(eq(orders.id, id));
    expect(dec(moved.stopLoss!).toString()).toBe('1.103');

    expect((await call('POST', '/dashboard/orders/close', { orderId: id, amount: '4000' })).statusCode).toBe(200);
    const here = t.ctx.risk as RiskService;
    expect(other.positionPl(id)).toBeCloseTo(here.positionPl(id) as number, 8);
    expect(other.engine.walletState(walletId)).toMatchObject({ margin: here.engine.walletState(walletId)?.margin });
    expect(other.engine.trailingSize).toBe(1);

    // The main instance stops leading; the other takes over and trails from the stop-loss it was told.
    here.standDown();
    try {
      await other.takeOver();
      price(1.1081, 1.1083);
      await other.idle();
      await here.idle();
      const [after] = await t.ctx.db.select().from(orders).where(eq(orders.id, id));
      expect(dec(after.stopLoss!).toString()).toBe('1.1061');
      expect(dec(after.tradeAmount).toString()).toBe('6000');
    } finally {
      other.standDown();
      await here.takeOver();
    }
    expect((await call('POST', '/dashboard/orders/close', { orderId: id })).statusCode).toBe(200);
    expect(other.openPositions(walletId)).toBe(0);
    expect(other.engine.trailingSize).toBe(0);
  });

  it('follows the positions a burst of pending fills opened together, told in one message', async () => {
    price(1.1, 1.1002);
    for (let k = 0; k < 3; k++) {
      const res = await call('POST', '/dashboard/orders', {
        type: 'buy',
        instrument: 'EUR_USD',
        amount: '1000',
        orderType: 'limit',
        price: '1.0995',
        expiry: 'gtc',
        profit: null,
        loss: null,
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const here = t.ctx.risk as RiskService;
    const before = other.openPositions(walletId);
    price(1.0992, 1.0994);
    await (t.ctx.pending as PendingService).idle();
    expect(here.openPositions(walletId)).toBe(before + 3);
    expect(other.openPositions(walletId)).toBe(before + 3);
    expect(other.engine.walletState(walletId)).toMatchObject({ margin: here.engine.walletState(walletId)?.margin });
    const opened = await t.ctx.db.select().from(orders).where(eq(orders.balanceId, walletId));
    for (const o of opened.filter((o) => o.closeTime === null && o.pendingOrderId !== null)) {
      expect(other.positionPl(o.id)).toBeCloseTo(here.positionPl(o.id) as number, 8);
      expect((await call('POST', '/dashboard/orders/close', { orderId: o.id })).statusCode).toBe(200);
    }
    expect(other.openPositions(walletId)).toBe(before);
  });

  it('does not track again a position whose "opened" arrives after its "closed" (two publishers, no order between them)', async () => {
    price(1.1, 1.1002);
    const before = other.openPositions(walletId);
    const placed = await call('POST', '/dashboard/orders', { type: 'buy', instrument: 'EUR_USD', amount: '1000' });
    const id = placed.json().order.id as number;
    expect((await call('POST', '/dashboard/orders/close', { orderId: id })).statusCode).toBe(200);
    expect(other.openPositions(walletId)).toBe(before);
    // The same "opened" told late, as another instance's message can be.
    const [row] = await t.ctx.db.select().from(orders).where(eq(orders.id, id));
    const open = { ...row, closeTime: null };
    t.ctx.cluster.bus.publish('risk', {
      op: 'opened',
      order: open,
      wallet: { id: walletId, balance: '10000', currency: 'USD', stopoutPercent: null },
    });
    expect(other.openPositions(walletId)).toBe(before);
    expect((await other.check()).phantom).not.toContain(id);
  });
});
