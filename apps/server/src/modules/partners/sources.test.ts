import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { dec } from '@platform/domain';
import { createTestApp, DEMO, resetWalletTo, signIn, type TestApp } from '../../../test/helpers.ts';
import { balances, deposits, leads, partnerCommissions, salesStatuses, users } from '../../db/schema.ts';
import { depthKit } from '../trading/depth-testing.ts';
import { forgetTrader } from '../trading/trader.ts';
import { accrueDeals } from './accrual.ts';
import { partnerOf } from './clients.ts';
import { expectRollUpsMatchDetail, expectSummaryMatchesDetail } from './days-testing.ts';
import { flushPartnerDeals } from './hook.ts';
import { partnerSummary, periodOf } from './reports.ts';
import { sweepPartnerAccruals } from './sweep.ts';

/**
 * Which partner a client belongs to (promo code, lead, staff), the CPA of a first deposit (paid by the sweep, once,
 * only above the plan's minimum), a partial close's commission on the part, and none on demo or a partner's own deal.
 */

let t: TestApp;
let admin: string;
const kit = depthKit(() => t);
const { price, consistent, risk } = kit;
let promoPartner: { id: number; cookie: string };
let leadPartner: { id: number; cookie: string };
let seq = 0;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie: string, payload?: unknown) =>
  t.app.inject({ method, url: `/api${url}`, headers: { cookie }, ...(payload ? { payload: payload as object } : {}) });

async function affiliate(name: string) {
  const [demo] = await t.ctx.db.select().from(users).where(eq(users.email, DEMO.affiliate));
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}-${Date.now()}@sources.test`;
  const [u] = await t.ctx.db
    .insert(users)
    .values({ fullName: name, email, passwordHash: demo.passwordHash, roleId: 4, isEmailVerified: true })
    .returning();
  return { id: u.id, cookie: await signIn(t.app, email) };
}

/** A customer signing up through the API, with a promo code or none; their real wallet active at 10,000. */
async function customer(promoCode?: string) {
  const email = `src${++seq}-${Date.now()}@sources.test`;
  const password = 'Password123!';
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    payload: {
      fullName: `Source Client ${seq}`,
      email,
      password,
      passwordConfirmation: password,
      phone: '+44 20 7946 0999',
      birthDate: '1990-01-01',
      country: 'United Kingdom',
      city: 'London',
      address: '1 Street',
      postalCode: 'N1 1AA',
      currency: 'USD',
      ...(promoCode ? { promoCode } : {}),
    },
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
  const [u] = await t.ctx.db.update(users).set({ isEmailVerified: true }).where(eq(users.email, email)).returning();
  const wallets = await t.ctx.db.select().from(balances).where(eq(balances.userId, u.id));
  const real = wallets.find((w) => w.mode === 'real')!;
  const demo = wallets.find((w) => w.mode === 'demo')!;
  await t.ctx.db.update(users).set({ activeBalanceId: real.id }).where(eq(users.id, u.id));
  forgetTrader(t.ctx.db, u.id);
  await resetWalletTo(t, real.id, '10000');
  risk().engine.setWalletBalance(real.id, 10000);
  return { id: u.id, email, cookie: await signIn(t.app, email, password), realId: real.id, demoId: demo.id };
}

const walletBalance = async (userId: number) =>
  (
    await t.ctx.db
      .select()
      .from(balances)
      .where(and(eq(balances.userId, userId), eq(balances.mode, 'real')))
  )[0]?.balance ?? '0';

beforeAll(async () => {
  t = await createTestApp({ MARKET_FEED: 'false' });
  admin = await signIn(t.app, DEMO.admin);
  await t.ctx.db.execute(sql`update settings set value2 = 'off', value3 = 'off' where key = 'kyc'`);
  promoPartner = await affiliate('Promo Partner');
  leadPartner = await affiliate('Lead Partner');
  const plan = await call('POST', '/admin/partners/plans', admin, {
    name: 'CPA and lots',
    currency: 'USD',
    perLot: { forex: '8', commodity: '0', index: '0', stock: '0', crypto: '0' },
    spreadShare: '0',
    commissionShare: '0',
    cpa: '100',
    cpaMinDeposit: '50',
    levels: ['100'],
  });
  expect(plan.statusCode, plan.body).toBe(200);
  for (const p of [promoPartner, leadPartner])
    expect(
      (await call('PUT', `/admin/partners/${p.id}`, admin, { planId: plan.json().plan.id, parentId: null })).statusCode,
    ).toBe(200);
  price('EUR_USD', 1.1, 1.1002);
});
afterAll(() => t.close());

describe('partners: whose client', () => {
  it('is the promo code typed at sign-up over an affiliate lead; staff reassignment wins over both', async () => {
    const code = (await call('POST', '/admin/promo-code', promoPartner.cookie)).json().code as string;
    const c = await customer(code);
    // The sign-up's lead is moved to another affiliate: the promo code still decides.
    await t.ctx.db.update(leads).set({ userId: leadPartner.id }).where(eq(leads.linkedUserId, c.id));
    const [status] = await t.ctx.db.select().from(salesStatuses).limit(1);
    expect(await partnerOf(t.ctx.db, c.id)).toBe(promoPartner.id);
    const lone = await customer();
    await t.ctx.db.insert(leads).values({
      firstName: 'Lead only',
      email: lone.email,
      leadStatus: status.status,
      source: 'affiliate',
      userId: leadPartner.id,
      linkedUserId: lone.id,
    });
    expect(await partnerOf(t.ctx.db, lone.id)).toBe(leadPartner.id);
    const moved = await call('PUT', `/admin/partners/clients/${c.id}`, admin, {
      partnerId: leadPartner.id,
      reason: 'Moved at the partners’ request',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await partnerOf(t.ctx.db, c.id)).toBe(leadPartner.id);
    const clients = (await call('GET', '/affiliate/partner/clients', promoPartner.cookie)).json();
    expect(clients.data.map((x: { id: number }) => x.id)).not.toContain(c.id);
    // Another partner's client, or an unknown customer, is not found.
    expect(
      (await call('PUT', '/admin/partners/clients/999999', admin, { partnerId: null, reason: 'x' })).statusCode,
    ).toBe(404);
  });
});

describe('partners: CPA, partial closes, demo', () => {
  it('pays the CPA of a first deposit at or above the minimum once, through the sweep', async () => {
    const code = (await call('GET', '/admin/promo-code', promoPartner.cookie)).json().code as string;
    const rich = await customer(code);
    const poor = await customer(code);
    const before = dec(await walletBalance(promoPartner.id));
    for (const [who, amount] of [
      [rich, '60'],
      [poor, '20'],
    ] as const) {
      const now = new Date();
      await t.ctx.db.insert(deposits).values({
        userId: who.id,
        balanceId: who.realId,
        gateway: 'bank',
        amount,
        fee: '0',
        total: amount,
        currency: 'USD',
        status: 'approved',
        reference: `SRC-${who.id}`,
        reviewedAt: now,
      });
      await t.ctx.db
        .update(users)
        .set({ ftdAt: now, ftdAmount: amount, ftdCurrency: 'USD' })
        .where(eq(users.id, who.id));
    }
    expect((await sweepPartnerAccruals(t.ctx)).cpa).toBe(1);
    expect((await sweepPartnerAccruals(t.ctx)).cpa).toBe(0);
    expect(
      dec(await walletBalance(promoPartner.id))
        .minus(before)
        .toFixed(2),
    ).toBe('100.00');
    const cpa = await t.ctx.db.select().from(partnerCommissions).where(eq(partnerCommissions.kind, 'cpa'));
    expect(cpa.map((r) => r.customerId)).toEqual([rich.id]);
  });

  it('pays a partial close on the part closed, the rest on its close, nothing on demo; a sweep after the job pays nothing twice', async () => {
    const code = (await call('GET', '/admin/promo-code', promoPartner.cookie)).json().code as string;
    const c = await customer(code);
    const before = dec(await walletBalance(promoPartner.id));
    const pos = await kit.place(c.cookie, { type: 'buy', instrument: 'EUR_USD', amount: '100000' });
    const part = await kit.close(c.cookie, pos.id, '25000');
    expect(part.statusCode, part.body).toBe(200);
    await risk().idle();
    await flushPartnerDeals(t.ctx.db);
    await t.ctx.jobs.idle();
    // 0.25 lot at 8 a lot.
    expect(
      dec(await walletBalance(promoPartner.id))
        .minus(before)
        .toFixed(2),
    ).toBe('2.00');
    // The rest: 0.75 lot; the sweep over the same deals afterwards changes nothing.
    await kit.close(c.cookie, pos.id);
    await risk().idle();
    await flushPartnerDeals(t.ctx.db);
    await t.ctx.jobs.idle();
    expect((await sweepPartnerAccruals(t.ctx)).deals).toBe(0);
    expect(
      dec(await walletBalance(promoPartner.id))
        .minus(before)
        .toFixed(2),
    ).toBe('8.00');
    // Demo: nothing.
    await t.ctx.db.update(users).set({ activeBalanceId: c.demoId }).where(eq(users.id, c.id));
    forgetTrader(t.ctx.db, c.id);
    const demo = await kit.place(c.cookie, { type: 'buy', instrument: 'EUR_USD', amount: '100000' });
    await kit.close(c.cookie, demo.id);
    await risk().idle();
    await flushPartnerDeals(t.ctx.db);
    await t.ctx.jobs.idle();
    await sweepPartnerAccruals(t.ctx);
    expect(
      dec(await walletBalance(promoPartner.id))
        .minus(before)
        .toFixed(2),
    ).toBe('8.00');
    const [wallet] = await t.ctx.db.select().from(balances).where(eq(balances.userId, promoPartner.id));
    await consistent(wallet.id);
    await consistent(c.realId);
  });

  it('lets a partner withdraw commission through the withdrawal flow, approved by staff', async () => {
    const [wallet] = await t.ctx.db.select().from(balances).where(eq(balances.userId, promoPartner.id));
    const before = dec(wallet.balance);
    const asked = await call('POST', '/withdraws/bank', promoPartner.cookie, {
      balance_id: wallet.id,
      amount: '50',
      bank_name: 'Partner Bank',
      account_name: 'Promo Partner',
      account_number: 'GB00TEST0000000001',
      swift_code: 'TESTGB2L',
      bank_country: 'United Kingdom',
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const [held] = await t.ctx.db.select().from(balances).where(eq(balances.id, wallet.id));
    expect(dec(held.balance).lt(before)).toBe(true);
    const [w] = (
      (await t.ctx.db.execute(
        sql`select id from withdrawals where user_id = ${promoPartner.id} order by id desc limit 1`,
      )) as unknown as { rows: Array<{ id: number }> }
    ).rows;
    const approved = await call('POST', `/admin/withdraws/${w.id}/approve`, admin);
    expect(approved.statusCode, approved.body).toBe(200);
    await consistent(wallet.id);
  });

  it('reports two clients of one partner opening opposite positions on one instrument within seconds', async () => {
    const code = (await call('GET', '/admin/promo-code', promoPartner.cookie)).json().code as string;
    const [a, b] = [await customer(code), await customer(code)];
    const buy = await kit.place(a.cookie, { type: 'buy', instrument: 'EUR_USD', amount: '10000' });
    const sell = await kit.place(b.cookie, { type: 'sell', instrument: 'EUR_USD', amount: '10000' });
    const report = await call('GET', '/admin/partners/mirror-trades?windowSeconds=30', admin);
    expect(report.statusCode, report.body).toBe(200);
    const pair = report
      .json()
      .data.find(
        (x: { firstOrderId: number; secondOrderId: number }) =>
          [x.firstOrderId, x.secondOrderId].sort().join() === [buy.id, sell.id].sort().join(),
      );
    expect(pair).toMatchObject({ partnerId: promoPartner.id, instrument: 'EUR_USD' });
    expect((await call('GET', '/admin/partners/mirror-trades?windowSeconds=0', admin)).statusCode).toBe(400);
    expect((await call('GET', '/admin/partners/mirror-trades', promoPartner.cookie)).statusCode).toBe(403);
    await kit.close(a.cookie, buy.id);
    await kit.close(b.cookie, sell.id);
  });

  it('counts a client active in a past period by a deal within it, not by their first and last deals', async () => {
    // Deals closed 90, 60 and 30 days ago by a client of no one, then given to the partner from long before (the plan
    // too), and paid: the client's first and last deals fall outside a period around the middle one.
    const c = await customer();
    const ago = (days: number) => new Date(Date.now() - days * 86_400_000);
    const ids: number[] = [];
    for (const days of [90, 60, 30]) {
      const pos = await kit.place(c.cookie, { type: 'buy', instrument: 'EUR_USD', amount: '10000' });
      expect((await kit.close(c.cookie, pos.id)).statusCode).toBe(200);
      await t.ctx.db.execute(sql`update orders set created_at = ${ago(days + 1).toISOString()}::timestamptz,
                                   close_time = ${ago(days).toISOString()}::timestamptz where id = ${pos.id}`);
      ids.push(pos.id);
    }
    await t.ctx.db.execute(sql`
      update partner_plan_versions set effective_from = '2020-01-01'
       where plan_id = (select plan_id from partner_links where user_id = ${promoPartner.id})`);
    await t.ctx.db.execute(sql`insert into partner_clients (customer_id, partner_id, reason, assigned_at)
                               values (${c.id}, ${promoPartner.id}, 'test', '2020-01-01')`);
    expect(await accrueDeals(t.ctx, ids)).toBe(3);
    const day = (days: number) => ago(days).toISOString().slice(0, 10);
    for (const [from, to, active] of [
      [75, 45, 1],
      [55, 35, 0],
      [95, 85, 1],
      [35, 25, 1],
      [120, 100, 0],
    ] as const) {
      const p = periodOf({ dateStart: day(from), dateEnd: day(to) });
      expect((await partnerSummary(t.ctx.db, promoPartner.id, p)).activeTraders).toBe(active);
      await expectSummaryMatchesDetail(t.ctx.db, promoPartner.id, p);
    }
  });

  it("keeps the daily roll-up equal to the commission rows (CPA, partial closes), and the dashboard's figures theirs", async () => {
    await risk().idle();
    await flushPartnerDeals(t.ctx.db);
    await t.ctx.jobs.idle();
    await expectRollUpsMatchDetail(t.ctx.db);
    for (const p of [promoPartner, leadPartner]) await expectSummaryMatchesDetail(t.ctx.db, p.id, periodOf({}));
  });
});
