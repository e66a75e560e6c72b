import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  createTestApp,
  DEMO,
  newVerifiedCustomer,
  resetWalletTo,
  signIn,
  type TestApp,
} from '../../../test/helpers.ts';
import { balances, notifications, pricingPlans, stopoutReports, users } from '../../db/schema.ts';
import { depthKit } from '../trading/depth-testing.ts';
import { forgetTrader } from '../trading/trader.ts';

let t: TestApp;
const kit = depthKit(() => t);
let who: { cookie: string; userId: number; walletId: number };

const notices = async (title: string) =>
  t.ctx.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, who.userId), eq(notifications.title, title)));
const calledAt = async () =>
  (await t.ctx.db.select().from(balances).where(eq(balances.id, who.walletId)))[0].marginCallAt;
/** A tick, then every close and notice it started. */
async function tick(bid: number) {
  kit.price('EUR_USD', bid, bid + 0.0002);
  await kit.risk().idle();
}

beforeAll(async () => {
  t = await createTestApp({ MARKET_FEED: 'false' });
  const admin = await signIn(t.app, DEMO.admin);
  const made = await kit.inject('POST', '/admin/pricing', admin, {
    name: 'Margin call 100',
    price: '0',
    forexLeverage: 100,
    retail: false,
    forexStopout: 50,
    marginCallLevel: 100,
    marginCallRearm: 10,
  });
  expect(made.statusCode, made.body).toBe(200);
  const [plan] = await t.ctx.db.select().from(pricingPlans).where(eq(pricingPlans.name, 'Margin call 100'));
  const c = await newVerifiedCustomer(t, 'margin-call');
  await t.ctx.db.update(users).set({ pricingTableId: plan.id }).where(eq(users.id, c.id));
  forgetTrader(t.ctx.db, c.id);
  const cookie = await signIn(t.app, c.email, c.password);
  const [u] = await t.ctx.db.select().from(users).where(eq(users.id, c.id));
  who = { cookie, userId: c.id, walletId: u.activeBalanceId as number };
  await resetWalletTo(t, who.walletId, '2000');
  kit.risk().engine.setWalletBalance(who.walletId, 2000);
});
afterAll(() => t.close());

describe('margin calls and stop-out reports', () => {
  it('calls once per crossing, re-arms after recovering past the re-arm points, then reports the stop-out', async () => {
    await tick(1.1);
    // 100,000 EUR/USD at 1.1002 with 1:100 holds 1,100.20: the margin level is equity ÷ 1,100.20.
    await kit.place(who.cookie, { type: 'buy', instrument: 'EUR_USD', amount: '100000' });
    await tick(1.095);
    expect(await notices('Margin call')).toHaveLength(0);

    // Equity 2,000 − 1,010 = 990: 90 %, at or below the call (100 %), above the stop-out (50 %).
    await tick(1.0901);
    const first = await notices('Margin call');
    expect(first).toHaveLength(1);
    const level = Number(/fell to ([\d.]+) % \(margin call at 100 %\)/.exec(first[0].description ?? '')?.[1]);
    expect(level, first[0].description ?? '').toBeGreaterThan(85);
    expect(level).toBeLessThanOrEqual(100);
    expect(await calledAt()).not.toBeNull();
    await tick(1.0899);
    await tick(1.09);
    expect(await notices('Margin call')).toHaveLength(1);

    // Staff see the wallet at the top of the accounts at risk, with the call on; a manager only their customers'.
    const admin = await signIn(t.app, DEMO.admin);
    const risky = await kit.inject('GET', '/admin/risk/accounts?mode=all&limit=100', admin);
    expect(risky.statusCode, risky.body).toBe(200);
    const mine = risky.json().data.find((a: { wallet_id: number }) => a.wallet_id === who.walletId);
    expect(mine).toMatchObject({ user_id: who.userId, positions: 1, margin_call: true, currency: 'USD' });
    expect(mine.margin_level).toBeLessThan(100);
    const levels = risky.json().data.map((a: { margin_level: number }) => a.margin_level);
    expect(levels).toEqual([...levels].sort((a, b) => a - b));
    const manager = await signIn(t.app, DEMO.manager);
    const theirs = await kit.inject('GET', '/admin/risk/accounts?mode=all&limit=100', manager);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json().data.some((a: { wallet_id: number }) => a.wallet_id === who.walletId)).toBe(false);
    expect((await kit.inject('GET', '/admin/risk/accounts', who.cookie)).statusCode).toBe(403);
    const bad = await kit.inject('GET', '/admin/risk/accounts?mode=everything', admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBeTruthy();

    // Back to 180 %: the sweep re-arms it, and the next fall calls again.
    await tick(1.1);
    kit.risk().sweepNow();
    await kit.risk().idle();
    expect(await calledAt()).toBeNull();
    await tick(1.0901);
    expect(await notices('Margin call')).toHaveLength(2);

    // Equity about 2,000 − 1,520 = 480, below the stop-out: the position closes and a report is written.
    await tick(1.085);
    const [report] = await t.ctx.db.select().from(stopoutReports).where(eq(stopoutReports.balanceId, who.walletId));
    expect(report.userId).toBe(who.userId);
    // About 42 % with the spread the position pays on closing: under the 50 % stop-out.
    expect(Number(report.marginLevel)).toBeGreaterThan(35);
    expect(Number(report.marginLevel)).toBeLessThan(50);
    expect(report.positions).toHaveLength(1);
    expect(report.positions[0]).toMatchObject({ instrument: 'EUR_USD', side: 'buy', price: expect.any(String) });
    const told = await notices('Stop-out report');
    expect(told).toHaveLength(1);
    expect(told[0].description).toContain(`Report #${report.id}`);
    await kit.consistent(who.walletId);
  });
});
