import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { dec } from '@platform/domain';
import { createTestApp, DEMO, resetWalletTo, signIn, type TestApp } from '../../test/helpers.ts';
import type { BusChannel, ClusterBus } from '../cluster/bus.ts';
import type { Leadership } from '../cluster/leader.ts';
import { orders, users } from '../db/schema.ts';
import { RiskService } from './risk-service.ts';

/** Two instances' buses in one process: what one publishes the other hears, as JSON, as over Redis. */
function memoryBuses(): [ClusterBus, ClusterBus] {
  const handlers = [new Map<BusChannel, Set<(m: unknown) => void>>(), new Map<BusChannel, Set<(m: unknown) => void>>()];
  const bus = (me: number): ClusterBus => ({
    enabled: true,
    instanceId: `i${me}`,
    publish(channel, message) {
      const copy = JSON.parse(JSON.stringify(message)) as unknown;
      for (const h of handlers[1 - me].get(channel) ?? []) h(copy);
    },
    subscribe(channel, handler) {
      const set = handlers[me].get(channel) ?? new Set();
      handlers[me].set(channel, set);
      set.add(handler);
      return () => set.delete(handler);
    },
    adapterClients: null,
    redis: null,
    close: async () => undefined,
  });
  return [bus(0), bus(1)];
}

const follower = (): Leadership => ({
  isLeader: false,
  onChange() {},
  ready: async () => undefined,
  claim() {},
  close: async () => undefined,
});

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
});
