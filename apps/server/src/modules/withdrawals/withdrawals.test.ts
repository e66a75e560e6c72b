import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  createTestApp,
  DEMO,
  ledgerAndBalance,
  newFundedCustomer,
  newVerifiedCustomer,
  signIn,
  type TestApp,
} from '../../../test/helpers.ts';
import { balances, ledgerEntries, users, withdrawals } from '../../db/schema.ts';

let t: TestApp;
let admin: string;

const BANK = {
  bank_name: 'Barclays',
  account_name: 'ignored',
  account_number: 'GB29NWBK60161331926819',
  swift_code: 'NWBKGB2L',
  bank_country: 'United Kingdom',
};

const fundedCustomer = (amount: string) => newFundedCustomer(t, 'withdrawer', amount);

const balanceOf = async (id: number) => (await t.ctx.db.select().from(balances).where(eq(balances.id, id)))[0];
const request = (cookie: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/withdraws/bank', headers: { cookie }, payload });

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, DEMO.admin);
});
afterAll(() => t.close());

describe('withdrawals', () => {
  it('holds amount plus fee at request, releases it on decline with the reason, pays it out on approval', async () => {
    const set = await t.app.inject({
      method: 'POST',
      url: '/api/admin/withdraws/settings',
      headers: { cookie: admin },
      payload: { feePercentage: '1.5', feeFixed: '2' },
    });
    expect(set.statusCode, set.body).toBe(200);
    const c = await fundedCustomer('1000');
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/withdraws/fees', headers: { cookie: c.cookie } })).json(),
    ).toEqual({ percentage: '1.5000', fixed: '2.00' });

    const first = await request(c.cookie, { ...BANK, balance_id: c.wallet, amount: '200' });
    expect(first.statusCode, first.body).toBe(200);
    expect((await balanceOf(c.wallet)).balance).toBe('795.00000000'); // 200 + 1.5 % + 2 = 205
    const pending = (
      await t.app.inject({ method: 'GET', url: '/api/admin/withdraws/api/pending', headers: { cookie: admin } })
    ).json();
    const row = pending.data.find((w: { user: { id: number } }) => w.user.id === c.id);
    expect(row).toMatchObject({ amount: '200.00000000', fee: '5.00000000', total: '205.00000000', status: 'pending' });
    expect(row.formattedDescription).toEqual({
      bankName: 'Barclays',
      accountName: 'Test Customer',
      accountNumber: BANK.account_number,
      swiftCode: 'NWBKGB2L',
      bankCountry: 'United Kingdom',
    });

    const decline = await t.app.inject({
      method: 'POST',
      url: `/api/admin/withdraws/${row.id}/decline`,
      headers: { cookie: admin },
      payload: { declineReason: 'Account name does not match' },
    });
    expect(decline.statusCode).toBe(200);
    expect((await balanceOf(c.wallet)).balance).toBe('1000.00000000');
    const history = (
      await t.app.inject({ method: 'GET', url: '/api/withdraws/history', headers: { cookie: c.cookie } })
    ).json();
    expect(history.data[0]).toMatchObject({ status: 'declined', decline_reason: 'Account name does not match' });
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/admin/withdraws/${row.id}/approve`,
          headers: { cookie: admin },
        })
      ).statusCode,
    ).toBe(409);

    const second = await request(c.cookie, { ...BANK, balance_id: c.wallet, amount: '100' });
    expect(second.statusCode).toBe(200);
    const [w2] = await t.ctx.db
      .select()
      .from(withdrawals)
      .where(and(eq(withdrawals.userId, c.id), eq(withdrawals.status, 'pending')));
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/admin/withdraws/${w2.id}/approve`, headers: { cookie: admin } }))
        .statusCode,
    ).toBe(200);
    expect((await balanceOf(c.wallet)).balance).toBe('896.50000000');
    const kinds = (await t.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.balanceId, c.wallet))).map(
      (e) => e.kind,
    );
    expect(kinds).toEqual([
      'adjustment',
      'withdrawal_hold',
      'withdrawal_release',
      'withdrawal_hold',
      'withdrawal_payout',
    ]);
    const sums = await ledgerAndBalance(t, c.wallet);
    expect(Number(sums.ledger)).toBe(Number(sums.balance));
    await t.app.inject({
      method: 'POST',
      url: '/api/admin/withdraws/settings',
      headers: { cookie: admin },
      payload: { feePercentage: '0', feeFixed: '0' },
    });
  });

  // 500 requests at once: minutes on a loaded 2-core machine.
  it('accepts exactly as many of 500 concurrent requests as the funds cover, and never goes below zero', async () => {
    const c = await fundedCustomer('100');
    const results = await Promise.all(
      Array.from({ length: 500 }, () => request(c.cookie, { ...BANK, balance_id: c.wallet, amount: '10' })),
    );
    const ok = results.filter((r) => r.statusCode === 200).length;
    expect(ok).toBe(10);
    expect(
      results.filter((r) => r.statusCode === 422).every((r) => r.json().message.startsWith('Insufficient free funds')),
    ).toBe(true);
    expect((await balanceOf(c.wallet)).balance).toBe('0.00000000');
    const sums = await ledgerAndBalance(t, c.wallet);
    expect(Number(sums.ledger)).toBe(0);
    expect(await t.ctx.db.select().from(withdrawals).where(eq(withdrawals.userId, c.id))).toHaveLength(10);
  }, 120_000);

  it('keeps the margin of open positions covered', async () => {
    const c = await fundedCustomer('100');
    await t.ctx.db.update(balances).set({ margin: '60' }).where(eq(balances.id, c.wallet));
    expect((await request(c.cookie, { ...BANK, balance_id: c.wallet, amount: '50' })).statusCode).toBe(422);
    expect((await request(c.cookie, { ...BANK, balance_id: c.wallet, amount: '40' })).statusCode).toBe(200);
  });

  it("refuses demo wallets, other users' wallets, missing fields and huge amounts", async () => {
    const c = await fundedCustomer('100');
    const [demo] = await t.ctx.db
      .select()
      .from(balances)
      .where(and(eq(balances.userId, c.id), eq(balances.mode, 'demo')));
    const [client] = await t.ctx.db.select().from(users).where(eq(users.email, DEMO.client));
    const [other] = await t.ctx.db
      .select()
      .from(balances)
      .where(and(eq(balances.userId, client.id), eq(balances.mode, 'real')));
    expect((await request(c.cookie, { ...BANK, balance_id: demo.id, amount: '10' })).statusCode).toBe(422);
    expect((await request(c.cookie, { ...BANK, balance_id: other.id, amount: '10' })).statusCode).toBe(404);
    const missing = await request(c.cookie, { ...BANK, swift_code: '', balance_id: c.wallet, amount: '10' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.swift_code).toBe('Swift code is required');
    expect((await request(c.cookie, { ...BANK, balance_id: c.wallet, amount: '1e13' })).statusCode).toBe(400);
    expect((await balanceOf(c.wallet)).balance).toBe('100.00000000');
  });

  it('refuses a customer without KYC while the withdraw switch is on', async () => {
    const c = await newVerifiedCustomer(t);
    const cookie = await signIn(t.app, c.email, c.password);
    const [w] = await t.ctx.db
      .select()
      .from(balances)
      .where(and(eq(balances.userId, c.id), eq(balances.mode, 'real')));
    const res = await request(cookie, { ...BANK, balance_id: w.id, amount: '10' });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Please verify KYC to enable withdraw');
  });

  it('does not let staff signed in as the customer withdraw', async () => {
    const c = await fundedCustomer('100');
    const as = await t.app.inject({
      method: 'POST',
      url: `/api/admin/customers/login-as/${c.id}`,
      headers: { cookie: admin },
    });
    expect(as.statusCode, as.body).toBe(200);
    const set = as.headers['set-cookie'];
    const cookie = (Array.isArray(set) ? set : [set ?? '']).find((s) => s.startsWith('sid='))!.split(';')[0];
    expect((await request(cookie, { ...BANK, balance_id: c.wallet, amount: '10' })).statusCode).toBe(403);
  });
});
