import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { dec } from '@platform/domain';
import {
  createTestApp,
  DEMO,
  newVerifiedCustomer,
  resetWalletTo,
  signIn,
  type TestApp,
} from '../../../test/helpers.ts';
import { orders, users } from '../../db/schema.ts';
import { RiskService } from '../../engine/risk-service.ts';
import { closeOrder } from './close-order.ts';
import { depthKit } from './depth-testing.ts';

let t: TestApp;
let client: string;
let admin: string;
let walletId: number;
let clientId: number;
const kit = depthKit(() => t);
const { place, close, modify, row, consistent, risk } = kit;
const pushed: Array<{ event: string; payload: { orderId: number; reason: string } }> = [];

/** The next quote of the simulated feed, as staff set it: a tick through the price book and the risk engine. */
async function quote(bid: string, ask: string, instrument = 'EUR_USD') {
  const res = await kit.inject('POST', '/admin/simulator/price', admin, { instrument, bid, ask });
  expect(res.statusCode, res.body).toBe(200);
  await risk().idle();
}
const stopLoss = async (id: number) => {
  const o = await row(id);
  return o.stopLoss === null ? null : dec(o.stopLoss).toString();
};

beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, DEMO.client);
  admin = await signIn(t.app, DEMO.admin);
  const [u] = await t.ctx.db.select().from(users).where(eq(users.email, DEMO.client));
  clientId = u.id;
  walletId = u.activeBalanceId!;
  const toUser = t.ctx.realtime.toUser.bind(t.ctx.realtime);
  t.ctx.realtime.toUser = (userId, event, payload) => {
    if (userId === clientId) pushed.push({ event, payload: payload as { orderId: number; reason: string } });
    toUser(userId, event, payload);
  };
});
afterAll(() => t.close());

beforeEach(async () => {
  const open = await t.ctx.db.select({ id: orders.id }).from(orders).where(sql`${orders.closeTime} is null`);
  for (const o of open) await closeOrder(t.ctx, { orderId: o.id, reason: 'admin' });
  await risk().idle();
  await resetWalletTo(t, walletId, '10000');
  risk().engine.setWalletBalance(walletId, 10000);
  await quote('1.10000', '1.10020');
  pushed.length = 0;
});

describe('trailing stop', () => {
  it('moves a buy’s stop-loss up with the bid by whole steps, never back, live, and closes the position when hit', async () => {
    const pos = await place(client, { type: 'buy', instrument: 'EUR_USD', amount: '10000' });
    const set = await modify(client, pos.id, { trailing: { distance: '0.002', step: '0.0005' } });
    expect(set.statusCode).toBe(200);
    expect(set.json().message).toBe('Trailing Stop Set Successfully');
    // It starts where it trails to: bid − distance.
    expect(set.json().order).toMatchObject({ id: pos.id });
    expect(dec(set.json().order.loss).toString()).toBe('1.098');
    expect(dec(set.json().order.trailing_distance).toString()).toBe('0.002');
    expect(dec(set.json().order.trailing_step).toString()).toBe('0.0005');

    await quote('1.10100', '1.10120');
    expect(await stopLoss(pos.id)).toBe('1.099');
    expect(pushed).toContainEqual({
      event: 'ordersChanged',
      payload: expect.objectContaining({ orderId: pos.id, reason: 'modified' }),
    });
    await quote('1.10130', '1.10150'); // 1.0993: less than a step above 1.099
    expect(await stopLoss(pos.id)).toBe('1.099');
    await quote('1.10150', '1.10170'); // 1.0995: exactly a step
    expect(await stopLoss(pos.id)).toBe('1.0995');
    await quote('1.10050', '1.10070'); // the price falls back: the stop stays
    expect(await stopLoss(pos.id)).toBe('1.0995');
    await consistent(walletId);

    await quote('1.09940', '1.09960'); // the bid reaches the stop
    const closed = await row(pos.id);
    expect(closed.closeReason).toBe('stop_loss');
    expect(dec(closed.closeRate!).toString()).toBe('1.0994');
    // (1.0994 − 1.1002) × 10000 − 2 of spread
    expect(dec(closed.proLoss!).toString()).toBe('-10');
    expect(risk().engine.trailingSize).toBe(0);
    await consistent(walletId);
  });

  it('moves a sell’s stop-loss down with the ask (step 0: any improvement)', async () => {
    const pos = await place(client, { type: 'sell', instrument: 'EUR_USD', amount: '10000', loss: '1.2' });
    const set = await modify(client, pos.id, { trailing: { distance: '0.003', step: '0' } });
    expect(dec(set.json().order.loss).toString()).toBe('1.1032');
    await quote('1.09880', '1.09900');
    expect(await stopLoss(pos.id)).toBe('1.102');
    await quote('1.09879', '1.09899');
    expect(await stopLoss(pos.id)).toBe('1.10199');
    await quote('1.09980', '1.10000');
    expect(await stopLoss(pos.id)).toBe('1.10199');
    expect((await row(pos.id)).closeTime).toBeNull();
    await consistent(walletId);
  });

  it('keeps a stop-loss that is already tighter, and stops trailing when removed', async () => {
    const pos = await place(client, { type: 'buy', instrument: 'EUR_USD', amount: '10000', loss: '1.0995' });
    const set = await modify(client, pos.id, { trailing: { distance: '0.002', step: '0' } });
    expect(dec(set.json().order.loss).toString()).toBe('1.0995');
    await quote('1.10200', '1.10220');
    expect(await stopLoss(pos.id)).toBe('1.1');
    const removed = await modify(client, pos.id, { trailing: null });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().message).toBe('Trailing Stop Removed');
    expect(removed.json().order.trailing_distance).toBeNull();
    await quote('1.10500', '1.10520');
    expect(await stopLoss(pos.id)).toBe('1.1');
    expect(risk().engine.trailingSize).toBe(0);
  });

  it('refuses a distance that makes no sense with a 400 and a message, another client’s position with a 404', async () => {
    const pos = await place(client, { type: 'buy', instrument: 'EUR_USD', amount: '10000' });
    const cases: Array<[unknown, RegExp]> = [
      [{ distance: '0', step: '0' }, /above zero/],
      [{ distance: '-0.001' }, /positive number/],
      [{ distance: '0.000001' }, /5 decimals/],
      [{ distance: '0.001', step: '0.002' }, /step must not exceed/],
      [{ distance: '1.2' }, /at or below zero: the bid is 1.10000/],
      [{ step: '0.001' }, /distance/i],
    ];
    for (const [trailing, message] of cases) {
      const res = await modify(client, pos.id, { trailing });
      expect(res.statusCode, JSON.stringify(trailing)).toBe(400);
      expect(res.json().message, JSON.stringify(trailing)).toMatch(message);
    }
    const o = await row(pos.id);
    expect(o.trailingDistance).toBeNull();
    expect(o.stopLoss).toBeNull();
    const sell = await place(client, { type: 'sell', instrument: 'EUR_USD', amount: '1000' });
    const far = await modify(client, sell.id, { trailing: { distance: '1.2' } });
    expect(far.statusCode).toBe(400);
    expect(far.json().message).toMatch(/below the ask/);

    const other = await newVerifiedCustomer(t, 'trailing');
    const theirs = await signIn(t.app, other.email, other.password);
    expect((await modify(theirs, pos.id, { trailing: { distance: '0.001' } })).statusCode).toBe(404);
    expect((await close(client, pos.id)).statusCode).toBe(200);
    expect((await modify(client, pos.id, { trailing: { distance: '0.001' } })).statusCode).toBe(409);
  });

  it('is moved by the leader only', async () => {
    const pos = await place(client, { type: 'buy', instrument: 'EUR_USD', amount: '10000' });
    await modify(client, pos.id, { trailing: { distance: '0.002', step: '0' } });
    risk().standDown();
    try {
      await quote('1.10300', '1.10320');
      expect(await stopLoss(pos.id)).toBe('1.098');
    } finally {
      await risk().takeOver();
    }
    await quote('1.10310', '1.10330');
    expect(await stopLoss(pos.id)).toBe('1.1011');
  });

  it('is loaded back from the database on a restart and keeps trailing, then closes the position when hit', async () => {
    const pos = await place(client, { type: 'sell', instrument: 'EUR_USD', amount: '10000' });
    await modify(client, pos.id, { trailing: { distance: '0.002', step: '0.0001' } });
    const before = risk();
    await before.stop();
    const restarted = new RiskService(() => t.ctx);
    t.ctx.risk = restarted;
    const errors = vi.fn();
    restarted.onError = errors;
    try {
      await restarted.start();
      expect(restarted.engine.trailingSize).toBe(1);
      expect(restarted.trailing.size).toBe(1);
      await quote('1.09500', '1.09520');
      expect(await stopLoss(pos.id)).toBe('1.0972');
      await quote('1.09700', '1.09720');
      const closed = await row(pos.id);
      expect(closed.closeReason).toBe('stop_loss');
      expect(dec(closed.closeRate!).toString()).toBe('1.0972');
      await consistent(walletId);
      expect(errors).not.toHaveBeenCalled();
    } finally {
      await restarted.stop();
      t.ctx.risk = before;
    }
  });
});
