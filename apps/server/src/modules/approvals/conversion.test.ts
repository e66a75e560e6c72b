import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  createTestApp,
  DEMO,
  ledgerAndBalance,
  newVerifiedCustomer,
  signIn,
  type TestApp,
} from '../../../test/helpers.ts';
import { balances } from '../../db/schema.ts';

let t: TestApp;
let admin: string;

const call = (method: 'GET' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie: admin }, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, DEMO.admin);
  expect((await call('PUT', '/api/admin/approvals/settings', { balanceAdjustment: '100' })).statusCode).toBe(200);
});
afterAll(() => t.close());

describe('thresholds in the site currency', () => {
  it("compare a euro wallet's amount converted to dollars at the market's rate", async () => {
    // 1 EUR = 1.10 USD (mid of 1.0999 / 1.1001).
    t.ctx.market.book.apply([
      { name: 'EUR_USD', bid: 1.0999, ask: 1.1001, closeoutBid: 1.0999, closeoutAsk: 1.1001, time: Date.now() },
    ]);
    const c = await newVerifiedCustomer(t, 'euro');
    const [w] = await t.ctx.db
      .update(balances)
      .set({ currency: 'EUR' })
      .where(and(eq(balances.userId, c.id), eq(balances.mode, 'real')))
      .returning();

    // 95 EUR ≈ 104.50 USD: above the 100 USD threshold although the figure is below 100.
    const held = await call('PUT', `/api/admin/balance/${w.id}`, { amount: '95', type: 'add', reason: 'Bonus' });
    expect(held.statusCode, held.body).toBe(202);
    const list = (await call('GET', '/api/admin/approvals')).json();
    const req = list.data.find((r: { id: number }) => r.id === held.json().approvalId);
    expect(req).toMatchObject({ amount: '95.00000000', currency: 'EUR', site_currency: 'USD' });
    expect(Number(req.amount_site)).toBeCloseTo(104.5, 0);

    // 90 EUR ≈ 99 USD: below, done at once.
    const done = await call('PUT', `/api/admin/balance/${w.id}`, { amount: '90', type: 'add', reason: 'Bonus' });
    expect(done.statusCode, done.body).toBe(200);
    const { ledger, balance } = await ledgerAndBalance(t, w.id);
    expect(balance).toBe('90.00000000');
    expect(ledger).toBe(balance);
  });
});
