import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  createTestApp,
  DEMO,
  ledgerAndBalance,
  newVerifiedCustomer,
  signIn,
  type TestApp,
} from '../../../test/helpers.ts';
import { balances, ledgerEntries, pricingPlans, users } from '../../db/schema.ts';
import { moveMoney } from '../wallets/ledger.ts';

let t: TestApp;
let admin: string;

const plans = async (cookie: string) =>
  (await t.app.inject({ method: 'GET', url: '/api/dashboard/pricing', headers: { cookie } })).json();
const subscribe = (cookie: string, id: number, payload?: { amount: string; currency: string }) =>
  t.app.inject({ method: 'POST', url: `/api/dashboard/pricing/subscribe/${id}`, headers: { cookie }, payload });

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, DEMO.admin);
});
afterAll(() => t.close());
afterEach(() => vi.restoreAllMocks());

/** A new customer whose wallets are in EUR, funded with `amount` on the real one; USD per EUR fixed at `usdPerEur`. */
async function eurCustomer(amount: string, usdPerEur: number) {
  const c = await newVerifiedCustomer(t, 'eurplan');
  await t.ctx.db.update(balances).set({ currency: 'EUR' }).where(eq(balances.userId, c.id));
  const [w] = await t.ctx.db
    .select()
    .from(balances)
    .where(and(eq(balances.userId, c.id), eq(balances.mode, 'real')));
  await moveMoney(t.ctx.db, {
    balanceId: w.id,
    amount,
    kind: 'adjustment',
    refType: 'staff',
    refId: null,
    actorId: null,
    note: 'funding',
  });
  const real = t.ctx.market.conversionRate.bind(t.ctx.market);
  vi.spyOn(t.ctx.market, 'conversionRate').mockImplementation((quote, wallet) =>
    quote === 'USD' && wallet === 'EUR' ? usdPerEur : real(quote, wallet),
  );
  return { ...c, wallet: w, cookie: await signIn(t.app, c.email, c.password) };
}

describe('pricing plans', () => {
  it('charges the price once from the real wallet through the ledger, or refuses with "Not enough balance" and changes nothing', async () => {
    const c = await newVerifiedCustomer(t, 'plan');
    const cookie = await signIn(t.app, c.email, c.password);
    const list = await plans(cookie);
    const silver = list.data.find((p: { name: string }) => p.name === 'Silver');
    expect(silver).toMatchObject({ price: '250.00000000', forex_leverage: 200, forex_stopout: 40, currency: 'USD' });

    const refused = await subscribe(cookie, silver.id);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('Not enough balance');
    expect((await t.ctx.db.select().from(users).where(eq(users.id, c.id)))[0].pricingTableId).toBeNull();

    const [w] = await t.ctx.db
      .select()
      .from(balances)
      .where(and(eq(balances.userId, c.id), eq(balances.mode, 'real')));
    await moveMoney(t.ctx.db, {
      balanceId: w.id,
      amount: '300',
      kind: 'adjustment',
      refType: 'staff',
      refId: null,
      actorId: null,
      note: 'funding',
    });
    const ok = await Promise.all([subscribe(cookie, silver.id), subscribe(cookie, silver.id)]);
    expect(ok.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect((await t.ctx.db.select().from(balances).where(eq(balances.id, w.id)))[0].balance).toBe('50.00000000');
    const charge = (await t.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.balanceId, w.id))).find(
      (e) => e.kind === 'plan_charge',
    );
    expect(charge).toMatchObject({ amount: '-250.00000000', refType: 'plan', refId: silver.id });
    const sums = await ledgerAndBalance(t, w.id);
    expect(Number(sums.ledger)).toBe(Number(sums.balance));
    const me = (await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })).json();
    expect(me.user.pricing_table_id).toBe(silver.id);
    expect(me.user.pricingTable.forex_leverage).toBe(200);
  });

  it("lists each plan's price in the customer's wallet currency and charges exactly the confirmed amount", async () => {
    const c = await eurCustomer('1000', 1.08);
    const silver = (await plans(c.cookie)).data.find((p: { name: string }) => p.name === 'Silver');
    // 250 USD at 1.08 USD per EUR = 231.4814… EUR, rounded up to the cent.
    expect(silver.charge).toEqual({ wallet_id: c.wallet.id, amount: '231.49', currency: 'EUR', rate: '1.08' });
    // Staff see the plan's own price only.
    expect((await plans(admin)).data.find((p: { name: string }) => p.name === 'Silver').charge).toBeUndefined();

    // The rate moved a little since the list: the confirmed amount is what is charged.
    vi.mocked(t.ctx.market.conversionRate).mockImplementation(() => 1.081);
    const ok = await subscribe(c.cookie, silver.id, { amount: '231.49', currency: 'EUR' });
    expect(ok.statusCode).toBe(200);
    const entries = await t.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.balanceId, c.wallet.id));
    const charge = entries.find((e) => e.kind === 'plan_charge');
    expect(charge).toMatchObject({ amount: '-231.49000000', refType: 'plan', refId: silver.id });
    expect(charge?.note).toContain('$250.00 = €231.49');
    expect((await t.ctx.db.select().from(balances).where(eq(balances.id, c.wallet.id)))[0].balance).toBe(
      '768.51000000',
    );
    const sums = await ledgerAndBalance(t, c.wallet.id);
    expect(Number(sums.ledger)).toBe(Number(sums.balance));
  });

  it('refuses a confirmed amount the rate has moved away from, or in another currency, and charges nothing', async () => {
    const c = await eurCustomer('1000', 1.08);
    const silver = (await plans(c.cookie)).data.find((p: { name: string }) => p.name === 'Silver');
    vi.mocked(t.ctx.market.conversionRate).mockImplementation(() => 1.2); // 250 / 1.2 = 208.34 EUR now
    const moved = await subscribe(c.cookie, silver.id, { amount: '231.49', currency: 'EUR' });
    expect(moved.statusCode).toBe(409);
    expect(moved.json().message).toBe('The price is now €208.34 at the current rate. Please confirm the new price.');
    const dollars = await subscribe(c.cookie, silver.id, { amount: '208.34', currency: 'USD' });
    expect(dollars.statusCode).toBe(409);
    const bad = await subscribe(c.cookie, silver.id, { amount: '-5', currency: 'EUR' });
    expect(bad.statusCode).toBe(400);
    const entries = await t.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.balanceId, c.wallet.id));
    expect(entries.some((e) => e.kind === 'plan_charge')).toBe(false);
    expect((await t.ctx.db.select().from(users).where(eq(users.id, c.id)))[0].pricingTableId).toBeNull();
    // Confirming the new price goes through.
    expect((await subscribe(c.cookie, silver.id, { amount: '208.34', currency: 'EUR' })).statusCode).toBe(200);
  });

  it('lets admins add, edit and delete plans, refusing to delete one in use', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/admin/pricing',
      headers: { cookie: admin },
      payload: { name: 'X', price: '-1', forexLeverage: 0 },
    });
    expect(bad.statusCode).toBe(400);
    const add = await t.app.inject({
      method: 'POST',
      url: '/api/admin/pricing',
      headers: { cookie: admin },
      payload: {
        name: 'Platinum',
        description: 'Top tier',
        price: '5000',
        forexLeverage: 1000,
        retail: false,
        cryptoLeverage: '',
        forexStopout: 20,
      },
    });
    expect(add.json().message).toBe('Plan added successfully');
    const [row] = await t.ctx.db.select().from(pricingPlans).where(eq(pricingPlans.name, 'Platinum'));
    expect(row).toMatchObject({ price: '5000.00000000', forexLeverage: 1000, cryptoLeverage: null, forexStopout: 20 });
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/pricing/${row.id}`,
      headers: { cookie: admin },
      payload: { name: 'Platinum+', price: '4000' },
    });
    expect(edit.json().message).toBe('Plan updated successfully');
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/admin/pricing/${row.id}`, headers: { cookie: admin } })).json()
        .message,
    ).toBe('Plan deleted successfully');
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/admin/pricing/${row.id}`, headers: { cookie: admin } }))
        .statusCode,
    ).toBe(404);

    const basic = (await plans(admin)).data.find((p: { name: string }) => p.name === 'Basic');
    expect(basic.subscribers).toBeGreaterThan(0);
    const inUse = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/pricing/${basic.id}`,
      headers: { cookie: admin },
    });
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().message).toMatch(/subscribed to this plan/);
    const client = await signIn(t.app, DEMO.client);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/admin/pricing',
          headers: { cookie: client },
          payload: { name: 'Y' },
        })
      ).statusCode,
    ).toBe(403);
  });
});
