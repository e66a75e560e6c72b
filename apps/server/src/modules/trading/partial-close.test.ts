import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { dec } from '@platform/domain';
import { createTestApp, DEMO, newVerifiedCustomer, signIn, type TestApp } from '../../../test/helpers.ts';
import { auditLogs, notifications, orders } from '../../db/schema.ts';
import { putSetting } from '../settings/service.ts';
import { depthKit } from './depth-testing.ts';

let t: TestApp;
let client: string;
let walletId: number;
let clientId: number;
const kit = depthKit(() => t);
const { price, place, close, modify, row, ledgerOf, consistent, risk } = kit;

beforeAll(async () => {
  t = await createTestApp();
  ({ client, clientId, walletId } = await kit.demoClient());
});
afterAll(() => t.close());

beforeEach(async () => {
  await kit.flat(walletId);
  // Lot sizes in units, so the parts are plain amounts.
  await putSetting(t.ctx.db, 'lot_forex', { value1: 'amount' });
});

describe('partial close', () => {
  it('closes a part at the bid as a deal of its own, realising exactly its P/L, and the rest later', async () => {
    const pos = await place(client, { type: 'buy', instrument: 'EUR_USD', amount: '10000' });
    price('EUR_USD', 1.105, 1.1052);
    const res = await close(client, pos.id, '4000');
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Part of the position closed');
    const deal = res.json().order;
    expect(deal).toMatchObject({ partial_of: pos.id, close_reason: 'manual', type: 'buy' });
    expect(deal.id).not.toBe(pos.id);
    expect(dec(deal.trade_amount).toString()).toBe('4000');
    expect(dec(deal.open_rate).toString()).toBe('1.1002');
    expect(dec(deal.close_rate).toString()).toBe('1.105');
    // (1.105 − 1.1002) × 4000 = 19.2, less its share of the 2.00 spread (0.8)
    expect(dec(deal.spread).toString()).toBe('0.8');
    expect(dec(deal.pro_loss).toString()).toBe('18.4');
    expect(dec(deal.margin_used).toString()).toBe('44.008');
    const entries = await ledgerOf(deal.id);
    expect(entries.map((e) => [e.kind, dec(e.amount).toString()])).toEqual([
      ['trade_pl', '19.2'],
      ['spread', '-0.8'],
    ]);
    const rest = await row(pos.id);
    expect(rest.closeTime).toBeNull();
    expect(dec(rest.tradeAmount).toString()).toBe('6000');
    expect(dec(rest.spread).toString()).toBe('1.2');
    expect(dec(rest.marginUsed).toString()).toBe('66.012');
    const w = await consistent(walletId);
    expect(dec(w.balance).toString()).toBe('10018.4');
    expect(dec(w.margin).toString()).toBe('66.012');
    // The engine values what stays open: (1.105 − 1.1002) × 6000 − 1.2
    expect(risk().positionPl(pos.id)).toBeCloseTo(27.6, 8);

    const last = await close(client, pos.id);
    expect(last.statusCode).toBe(200);
    expect(dec(last.json().order.pro_loss).toString()).toBe('27.6');
    const after = await consistent(walletId);
    // The two parts together make what closing it whole would have: 0.0048 × 10000 − 2
    expect(dec(after.balance).toString()).toBe('10046');
    expect(dec(after.margin).toString()).toBe('0');
  });

  it('keeps the take-profit, stop-loss and trailing stop on what stays open, and the statements show both parts', async () => {
    const pos = await place(client, {
      type: 'sell',
      instrument: 'EUR_USD',
      amount: '5000',
      profit: '1.09',
      loss: '1.12',
    });
    expect((await modify(client, pos.id, { trailing: { distance: '0.005', step: '0.0001' } })).statusCode).toBe(200);
    price('EUR_USD', 1.098, 1.0982);
    await risk().idle();
    const before = await row(pos.id);
    const res = await close(client, pos.id, 2000);
    expect(res.statusCode).toBe(200);
    const rest = await row(pos.id);
    expect(dec(rest.tradeAmount).toString()).toBe('3000');
    expect(rest.takeProfit).toBe(before.takeProfit);
    expect(rest.trailingDistance).toBe(before.trailingDistance);
    expect(rest.trailingStep).toBe(before.trailingStep);
    expect(dec(rest.stopLoss!).toString()).toBe(dec(before.stopLoss!).toString());
    // A sell closes at the ask: (1.1 − 1.0982) × 2000 − 0.4 of the 1.00 spread
    expect(dec(res.json().order.pro_loss).toString()).toBe('3.2');
    expect((await close(client, pos.id)).statusCode).toBe(200);
    const history = await kit.inject('GET', '/statements/history?limit=100', client);
    const rows = history.json().data as Array<{
      id: number;
      trade_amount: string;
      created_at: string;
      partial_of: number | null;
    }>;
    const parts = rows.filter((r) => r.id === pos.id || r.id === res.json().order.id);
    expect(parts.map((p) => [dec(p.trade_amount).toString(), p.partial_of]).sort()).toEqual([
      ['2000', pos.id],
      ['3000', null],
    ]);
    // Both parts were opened when the position was.
    expect(new Set(parts.map((p) => p.created_at)).size).toBe(1);
    await consistent(walletId);
  });

  it('refuses bad amounts with a 400 and a message, changing nothing', async () => {
    const pos = await place(client, { type: 'buy', instrument: 'EUR_USD', amount: '10000' });
    const cases: Array<[unknown, RegExp]> = [
      ['0', /amount/i],
      ['-1000', /positive number/],
      ['abc', /positive number/],
      ['1000.123456789', /8 decimals/],
      ['500', /smallest amount you can close is 1000/],
      ['1500', /multiple of 1000/],
      ['9500', /multiple of 1000/],
      ['20000', /holds 10000/],
    ];
    for (const [amount, message] of cases) {
      const res = await close(client, pos.id, amount as string);
      expect(res.statusCode, String(amount)).toBe(400);
      expect(res.json().message, String(amount)).toMatch(message);
    }
    const odd = await place(client, { type: 'buy', instrument: 'EUR_USD', amount: '1500' });
    const refused = await close(client, odd.id, '1000');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/only be closed whole/);
    expect(dec((await row(pos.id)).tradeAmount).toString()).toBe('10000');
    expect(dec((await row(odd.id)).tradeAmount).toString()).toBe('1500');
    await consistent(walletId);
    // The whole amount is an ordinary close.
    const whole = await close(client, pos.id, '10000');
    expect(whole.statusCode).toBe(200);
    expect(whole.json().message).toBe('Order Closed Successfully');
    expect(whole.json().order).toMatchObject({ id: pos.id, partial_of: null });
    await consistent(walletId);
  });

  it('applies lot mode: the smallest preset is the smallest part and the step', async () => {
    await putSetting(t.ctx.db, 'lot_forex', { value1: 'lot' });
    await putSetting(t.ctx.db, 'lotSelector', {
      value1: JSON.stringify([
        { label: 'Standard lot (1)', value: 100000 },
        { label: 'Mini lot (0.1)', value: 10000 },
      ]),
    });
    const pos = await place(client, { type: 'buy', instrument: 'EUR_USD', amount: '100000' });
    const small = await close(client, pos.id, '5000');
    expect(small.statusCode).toBe(400);
    expect(small.json().message).toMatch(/smallest amount you can close is 10000/);
    expect((await close(client, pos.id, '15000')).statusCode).toBe(400);
    expect((await close(client, pos.id, '30000')).statusCode).toBe(200);
    expect(dec((await row(pos.id)).tradeAmount).toString()).toBe('70000');
    await consistent(walletId);
  });

  it("answers 404 for another client's position or an unknown one, 409 for a closed one", async () => {
    const pos = await place(client, { type: 'buy', instrument: 'EUR_USD', amount: '10000' });
    const other = await newVerifiedCustomer(t, 'partial');
    const theirs = await signIn(t.app, other.email, other.password);
    const res = await close(theirs, pos.id, '1000');
    expect(res.statusCode).toBe(404);
    expect((await close(client, 2_000_000_000, '1000')).statusCode).toBe(404);
    expect(dec((await row(pos.id)).tradeAmount).toString()).toBe('10000');
    expect((await close(client, pos.id)).statusCode).toBe(200);
    expect((await close(client, pos.id, '1000')).statusCode).toBe(409);
  });

  it('lets staff close a part (audited, the client notified)', async () => {
    const pos = await place(client, { type: 'buy', instrument: 'USD_JPY', amount: '10000' });
    const admin = await signIn(t.app, DEMO.admin);
    const res = await kit.inject('POST', '/admin/trades/close', admin, { orderId: pos.id, amount: '3000' });
    expect(res.statusCode).toBe(200);
    expect(dec(res.json().trade.trade_amount).toString()).toBe('3000');
    expect(dec((await row(pos.id)).tradeAmount).toString()).toBe('7000');
    const [audit] = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'order.close'), eq(auditLogs.subjectId, pos.id)))
      .orderBy(desc(auditLogs.id))
      .limit(1);
    expect(audit.after).toMatchObject({ deal: res.json().trade.id });
    const [notice] = await t.ctx.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, clientId))
      .orderBy(desc(notifications.id))
      .limit(1);
    expect(notice.title).toBe('Part of your position closed by the broker');
    await consistent(walletId);
  });

  it('leaves one consistent state after 100 concurrent partial closes and modifications', async () => {
    const pos = await place(client, { type: 'buy', instrument: 'EUR_USD', amount: '50000' });
    const original = await row(pos.id);
    price('EUR_USD', 1.1013, 1.1015);
    const calls = Array.from({ length: 100 }, (_, i) =>
      i % 5 === 4
        ? modify(client, pos.id, i % 2 ? { profit: '1.2' } : { trailing: { distance: '0.002', step: '0' } })
        : close(client, pos.id, '1000'),
    );
    const answers = await Promise.all(calls);
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c >= 500)).toEqual([]);
    const deals = await t.ctx.db.select().from(orders).where(eq(orders.partialOf, pos.id));
    const rest = await row(pos.id);
    const closedWhole = rest.closeTime !== null;
    // 80 closes of 1000 on 50000: 49 parts, then the last 1000 closes the position itself; the others find it closed.
    expect(deals).toHaveLength(49);
    expect(closedWhole).toBe(true);
    const closes = codes.filter((_, i) => i % 5 !== 4);
    expect(closes.filter((c) => c === 200).length).toBe(50);
    expect(closes.filter((c) => c === 409).length).toBe(30);
    // A modification lands on the open position or finds it closed.
    expect(codes.filter((c, i) => i % 5 === 4 && c !== 200 && c !== 409)).toEqual([]);
    const amounts = deals.reduce((s, d) => s.plus(d.tradeAmount), dec(rest.tradeAmount));
    expect(amounts.toString()).toBe('50000');
    const spreads = deals.reduce((s, d) => s.plus(d.spread), dec(rest.spread));
    expect(spreads.toString()).toBe(dec(original.spread).toString());
    const margins = deals.reduce((s, d) => s.plus(d.marginUsed), dec(rest.marginUsed));
    expect(margins.toString()).toBe(dec(original.marginUsed).toString());
    // Each part realised its own P/L: (1.1013 − 1.1002) × 1000 − 0.2 = 0.9
    for (const d of deals) expect(dec(d.proLoss!).toString()).toBe('0.9');
    const w = await consistent(walletId);
    expect(dec(w.balance).toString()).toBe('10045');
  });
});
