import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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
import { instruments, orders, pricingPlans, users } from '../../db/schema.ts';
import { closeOrder } from '../trading/close-order.ts';
import { depthKit } from '../trading/depth-testing.ts';
import { forgetTrader } from '../trading/trader.ts';

let t: TestApp;
let admin: string;
const kit = depthKit(() => t);

/** A new customer on the plan named, holding `funds` USD. */
async function customerOn(planName: string, funds: string) {
  const [plan] = await t.ctx.db.select().from(pricingPlans).where(eq(pricingPlans.name, planName));
  const who = await newVerifiedCustomer(t, 'retail');
  await t.ctx.db.update(users).set({ pricingTableId: plan.id }).where(eq(users.id, who.id));
  forgetTrader(t.ctx.db, who.id);
  const cookie = await signIn(t.app, who.email, who.password);
  const [u] = await t.ctx.db.select().from(users).where(eq(users.id, who.id));
  const walletId = u.activeBalanceId as number;
  await resetWalletTo(t, walletId, funds);
  kit.risk().engine.setWalletBalance(walletId, Number(funds));
  return { cookie, walletId, planId: plan.id };
}

beforeAll(async () => {
  t = await createTestApp({ MARKET_FEED: 'false' });
  admin = await signIn(t.app, DEMO.admin);
  // The instruments' own leverage, above every retail cap: what a plan without a category leverage uses.
  await t.ctx.db.update(instruments).set({ leverage: 100 }).where(sql`${instruments.name} in ('EUR_USD', 'AUD_USD')`);
  await t.ctx.market.instruments.reload(t.ctx.db);
});
afterAll(() => t.close());
beforeEach(async () => {
  const open = await t.ctx.db.select({ id: orders.id }).from(orders).where(sql`${orders.closeTime} is null`);
  for (const o of open) await closeOrder(t.ctx, { orderId: o.id, reason: 'admin' });
  await kit.risk().idle();
  kit.price('EUR_USD', 1.1, 1.1002);
  kit.price('AUD_USD', 0.65, 0.6502);
});

describe('retail pricing plans', () => {
  it('are the default for a new plan, with the shipped caps, and refuse terms above them', async () => {
    const made = await kit.inject('POST', '/admin/pricing', admin, { name: 'Retail default', price: '0' });
    expect(made.statusCode, made.body).toBe(200);
    const [plan] = await t.ctx.db.select().from(pricingPlans).where(eq(pricingPlans.name, 'Retail default'));
    expect(plan.retail).toBe(true);
    const listed = (await kit.inject('GET', '/dashboard/pricing?search=Retail%20default', admin)).json().data[0];
    expect(listed).toMatchObject({ retail: true, retail_caps: { forexMajor: 30, forexOther: 20, crypto: 2 } });

    const above = await kit.inject('POST', '/admin/pricing', admin, {
      name: 'Too high',
      price: '0',
      forexLeverage: 50,
    });
    expect(above.statusCode).toBe(400);
    expect(above.json().errors.forexLeverage).toBe('A retail plan allows at most 1:30 on this category');
    const lowStop = await kit.inject('POST', '/admin/pricing', admin, { name: 'Low', price: '0', stockStopout: 20 });
    expect(lowStop.statusCode).toBe(400);
    expect(lowStop.json().errors.stockStopout).toBe('A retail plan closes out at 50 % or above');
    expect(await t.ctx.db.select().from(pricingPlans).where(sql`${pricingPlans.name} in ('Too high', 'Low')`)).toEqual(
      [],
    );

    // An edit that keeps retail on without naming it is checked against the stored plan; each edit bumps its revision.
    const edit = await kit.inject('PUT', `/admin/pricing/${plan.id}`, admin, {
      name: 'Retail default',
      price: '0',
      cryptoLeverage: 3,
    });
    expect(edit.statusCode).toBe(400);
    expect(edit.json().errors.cryptoLeverage).toBe('A retail plan allows at most 1:2 on this category');
    const ok = await kit.inject('PUT', `/admin/pricing/${plan.id}`, admin, {
      name: 'Retail default',
      price: '0',
      cryptoLeverage: 2,
      retailCaps: {
        forexMajor: 25,
        forexOther: 20,
        gold: 20,
        indexMajor: 20,
        commodity: 10,
        index: 10,
        stock: 5,
        crypto: 2,
      },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const [after] = await t.ctx.db.select().from(pricingPlans).where(eq(pricingPlans.id, plan.id));
    expect(after).toMatchObject({ retail: true, cryptoLeverage: 2, revision: plan.revision + 1 });
    expect((after.retailCaps as { forexMajor: number }).forexMajor).toBe(25);

    // A professional plan keeps any leverage.
    const pro = await kit.inject('POST', '/admin/pricing', admin, {
      name: 'Professional',
      price: '0',
      retail: false,
      forexLeverage: 500,
    });
    expect(pro.statusCode, pro.body).toBe(200);
  });

  it('margins orders at the class cap and refuses one beyond it with a message naming the cap', async () => {
    expect((await kit.inject('POST', '/admin/pricing', admin, { name: 'Retail trading', price: '0' })).statusCode).toBe(
      200,
    );
    const a = await customerOn('Retail trading', '1000');
    // EUR/USD, a major: 1:30. 10,000 × 1.1002 / 30 = 366.73333334 (rounded up).
    const major = await kit.place(a.cookie, { type: 'buy', instrument: 'EUR_USD', amount: '10000' });
    expect(dec((await kit.row(major.id)).marginUsed).toString()).toBe('366.73333334');
    expect((await kit.row(major.id)).leverage).toBe(30);
    // AUD/USD, another pair: 1:20. 10,000 × 0.6502 / 20 = 325.1.
    const other = await kit.place(a.cookie, { type: 'buy', instrument: 'AUD_USD', amount: '10000' });
    expect(dec((await kit.row(other.id)).marginUsed).toString()).toBe('325.1');
    await kit.consistent(a.walletId);

    // 30,000 EUR/USD needs 1,100.2 at 1:30 (33 at the instrument's 1:100): refused, saying why; nothing written.
    const before = await t.ctx.db.select().from(orders).where(eq(orders.balanceId, a.walletId));
    const refused = await kit.inject('POST', '/dashboard/orders', a.cookie, {
      type: 'buy',
      instrument: 'EUR_USD',
      amount: '30000',
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('Insufficient Balance! Retail leverage on EUR/USD is limited to 1:30.');
    expect(await t.ctx.db.select().from(orders).where(eq(orders.balanceId, a.walletId))).toHaveLength(before.length);
    await kit.consistent(a.walletId);
  });

  it('reprices an order whose plan changed while it was priced (the revision)', async () => {
    expect((await kit.inject('POST', '/admin/pricing', admin, { name: 'Retail moving', price: '0' })).statusCode).toBe(
      200,
    );
    const a = await customerOn('Retail moving', '5000');
    await kit.place(a.cookie, { type: 'buy', instrument: 'EUR_USD', amount: '1000' });
    // The plan turns professional behind the trader's remembered terms: the next order takes the new leverage.
    await kit.inject('PUT', `/admin/pricing/${a.planId}`, admin, { name: 'Retail moving', price: '0', retail: false });
    const o = await kit.place(a.cookie, { type: 'buy', instrument: 'EUR_USD', amount: '10000' });
    expect((await kit.row(o.id)).leverage).toBe(100);
    await kit.consistent(a.walletId);
  });
});
