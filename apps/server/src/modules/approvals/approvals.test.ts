import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import {
  createTestApp,
  DEMO,
  ledgerAndBalance,
  newFundedCustomer,
  signIn,
  type TestApp,
} from '../../../test/helpers.ts';
import {
  approvalRequests,
  auditLogs,
  balances,
  ledgerEntries,
  paymentGateways,
  pricingPlans,
  users,
  withdrawals,
} from '../../db/schema.ts';

let t: TestApp;
let admin: string;
let admin2: string;
let admin3: string;
let manager: string;
let adminId: number;

const BANK = {
  bank_name: 'Barclays',
  account_name: 'ignored',
  account_number: 'GB29NWBK60161331926819',
  swift_code: 'NWBKGB2L',
  bank_country: 'United Kingdom',
};

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (cookie: string, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

async function newAdmin(email: string): Promise<string> {
  const res = await call(admin, 'POST', '/api/admin/users', {
    fullName: 'Second Admin',
    email,
    password: 'Second12345!',
    roleId: 1,
    whitelist: '',
    isEmailVerified: true,
    isActive: true,
  });
  expect(res.statusCode, res.body).toBe(201);
  return signIn(t.app, email, 'Second12345!');
}

const fundedCustomer = (amount: string) => newFundedCustomer(t, 'approvals', amount);

async function withdrawalOf(c: { id: number; cookie: string; wallet: number }, amount: string) {
  const res = await call(c.cookie, 'POST', '/api/withdraws/bank', { ...BANK, balance_id: c.wallet, amount });
  expect(res.statusCode, res.body).toBe(200);
  const [w] = await t.ctx.db
    .select()
    .from(withdrawals)
    .where(and(eq(withdrawals.userId, c.id), eq(withdrawals.status, 'pending')))
    .orderBy(desc(withdrawals.id));
  return w;
}

const balanceOf = async (id: number) => (await t.ctx.db.select().from(balances).where(eq(balances.id, id)))[0].balance;
const kindsOf = async (wallet: number) =>
  (
    await t.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.balanceId, wallet)).orderBy(ledgerEntries.id)
  ).map((e) => e.kind);
async function consistent(wallet: number) {
  const s = await ledgerAndBalance(t, wallet);
  expect(Number(s.ledger)).toBe(Number(s.balance));
}
const requestOf = async (id: number) =>
  (await t.ctx.db.select().from(approvalRequests).where(eq(approvalRequests.id, id)))[0];

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, DEMO.admin);
  manager = await signIn(t.app, DEMO.manager);
  adminId = (await t.ctx.db.select().from(users).where(eq(users.email, DEMO.admin)))[0].id;
  admin2 = await newAdmin('second.admin@example.test');
  admin3 = await newAdmin('third.admin@example.test');
});
afterAll(() => t.close());

describe('approval settings', () => {
  it('are off by default; admins set thresholds in the site currency; bad input changes nothing', async () => {
    const get = await call(admin, 'GET', '/api/admin/approvals/settings');
    expect(get.statusCode).toBe(200);
    expect(get.json()).toEqual({
      withdrawal: null,
      balanceAdjustment: null,
      deposit: null,
      trade: null,
      planChange: false,
      gatewaySecrets: false,
      siteCurrency: 'USD',
    });
    const bad = await call(admin, 'PUT', '/api/admin/approvals/settings', { withdrawal: '-5', planChange: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBeTruthy();
    expect((await call(admin, 'GET', '/api/admin/approvals/settings')).json().withdrawal).toBeNull();
    expect((await call(manager, 'PUT', '/api/admin/approvals/settings', { withdrawal: '1' })).statusCode).toBe(403);
    expect((await call(manager, 'GET', '/api/admin/approvals/settings')).statusCode).toBe(403);

    const put = await call(admin, 'PUT', '/api/admin/approvals/settings', {
      withdrawal: '100',
      balanceAdjustment: '1000',
      deposit: '',
      trade: null,
      planChange: true,
      gatewaySecrets: true,
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ withdrawal: '100.00', balanceAdjustment: '1000.00', deposit: null });
    const [audit] = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.action, 'approvals.settings'))
      .orderBy(desc(auditLogs.id));
    expect(audit.actorId).toBe(adminId);
  });
});

describe('a withdrawal above the threshold', () => {
  it('moves no money until a second admin approves; the first admin cannot approve their own request', async () => {
    const c = await fundedCustomer('1000');
    const w = await withdrawalOf(c, '300');
    expect(await balanceOf(c.wallet)).toBe('700.00000000');

    const first = await call(admin, 'POST', `/api/admin/withdraws/${w.id}/approve`);
    expect(first.statusCode, first.body).toBe(202);
    const { approvalId, message } = first.json();
    expect(message).toMatch(/^Sent for approval/);
    expect((await t.ctx.db.select().from(withdrawals).where(eq(withdrawals.id, w.id)))[0].status).toBe('pending');
    expect(await kindsOf(c.wallet)).toEqual(['adjustment', 'withdrawal_hold']);
    await consistent(c.wallet);

    // Asking again for the same withdrawal is refused while the first request waits.
    const again = await call(admin, 'POST', `/api/admin/withdraws/${w.id}/approve`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already waiting/);

    const list = (await call(admin, 'GET', '/api/admin/approvals?status=pending')).json();
    const mine = list.data.find((r: { id: number }) => r.id === approvalId);
    expect(mine).toMatchObject({
      kind: 'withdrawal',
      status: 'pending',
      amount: '300.00000000',
      currency: 'USD',
      amount_site: '300.00000000',
      site_currency: 'USD',
      threshold: '100.00000000',
      can_decide: false,
      target_user: { id: c.id },
    });
    expect(mine.requested_by.id).toBe(adminId);
    const other = (await call(admin2, 'GET', '/api/admin/approvals?status=pending')).json();
    expect(other.data.find((r: { id: number }) => r.id === approvalId).can_decide).toBe(true);

    const own = await call(admin, 'POST', `/api/admin/approvals/${approvalId}/approve`);
    expect(own.statusCode).toBe(403);
    expect(own.json().message).toMatch(/your own request/);
    const ownReject = await call(admin, 'POST', `/api/admin/approvals/${approvalId}/reject`, { reason: 'no' });
    expect(ownReject.statusCode).toBe(403);
    expect(await kindsOf(c.wallet)).toEqual(['adjustment', 'withdrawal_hold']);

    const second = await call(admin2, 'POST', `/api/admin/approvals/${approvalId}/approve`);
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().approval).toMatchObject({
      status: 'approved',
      decided_by: { email: 'second.admin@example.test' },
    });
    expect((await t.ctx.db.select().from(withdrawals).where(eq(withdrawals.id, w.id)))[0].status).toBe('approved');
    expect(await kindsOf(c.wallet)).toEqual(['adjustment', 'withdrawal_hold', 'withdrawal_payout']);
    expect(await balanceOf(c.wallet)).toBe('700.00000000');
    await consistent(c.wallet);

    // Both people are on the record, and the decision is final.
    const [approved] = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'approval.approve'), eq(auditLogs.subjectId, approvalId)));
    expect(approved.after).toMatchObject({ requestedBy: adminId, status: 'approved' });
    expect(approved.actorId).not.toBe(adminId);
    const [paid] = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'withdrawal.approve'), eq(auditLogs.targetUserId, c.id)));
    expect(paid.actorId).toBe(adminId);
    expect((await call(admin3, 'POST', `/api/admin/approvals/${approvalId}/approve`)).statusCode).toBe(409);
    expect(
      (await call(admin3, 'POST', `/api/admin/approvals/${approvalId}/reject`, { reason: 'late' })).statusCode,
    ).toBe(409);
    expect(await kindsOf(c.wallet)).toEqual(['adjustment', 'withdrawal_hold', 'withdrawal_payout']);
  });

  it('rejected moves nothing; a reason is required', async () => {
    const c = await fundedCustomer('1000');
    const w = await withdrawalOf(c, '250');
    const { approvalId } = (await call(admin, 'POST', `/api/admin/withdraws/${w.id}/approve`)).json();
    const noReason = await call(admin2, 'POST', `/api/admin/approvals/${approvalId}/reject`, { reason: ' ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toBeTruthy();
    expect((await requestOf(approvalId)).status).toBe('pending');
    const rejected = await call(admin2, 'POST', `/api/admin/approvals/${approvalId}/reject`, {
      reason: 'Account name does not match',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json().approval).toMatchObject({
      status: 'rejected',
      decision_reason: 'Account name does not match',
    });
    expect((await t.ctx.db.select().from(withdrawals).where(eq(withdrawals.id, w.id)))[0].status).toBe('pending');
    expect(await kindsOf(c.wallet)).toEqual(['adjustment', 'withdrawal_hold']);
    expect((await call(admin3, 'POST', `/api/admin/approvals/${approvalId}/approve`)).statusCode).toBe(409);
    expect(await kindsOf(c.wallet)).toEqual(['adjustment', 'withdrawal_hold']);
    await consistent(c.wallet);
    const listed = (await call(admin, 'GET', '/api/admin/approvals?status=rejected')).json();
    expect(listed.data.some((r: { id: number }) => r.id === approvalId)).toBe(true);
  });

  it('below the threshold is approved at once, as before', async () => {
    const c = await fundedCustomer('1000');
    const w = await withdrawalOf(c, '50');
    const res = await call(admin, 'POST', `/api/admin/withdraws/${w.id}/approve`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Withdraw approved successfully');
    expect(await kindsOf(c.wallet)).toEqual(['adjustment', 'withdrawal_hold', 'withdrawal_payout']);
    await consistent(c.wallet);
  });

  it('fails at approval time when the withdrawal was declined meanwhile, and stays pending with the reason', async () => {
    const c = await fundedCustomer('1000');
    const w = await withdrawalOf(c, '400');
    const { approvalId } = (await call(admin, 'POST', `/api/admin/withdraws/${w.id}/approve`)).json();
    expect(
      (await call(admin3, 'POST', `/api/admin/withdraws/${w.id}/decline`, { declineReason: 'x' })).statusCode,
    ).toBe(200);
    const res = await call(admin2, 'POST', `/api/admin/approvals/${approvalId}/approve`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/already (reviewed|declined)/);
    const row = await requestOf(approvalId);
    expect(row.status).toBe('pending');
    expect(row.lastError).toMatch(/already (reviewed|declined)/);
    expect(await kindsOf(c.wallet)).toEqual(['adjustment', 'withdrawal_hold', 'withdrawal_release']);
    await consistent(c.wallet);
  });
});

describe('balance adjustments above the threshold', () => {
  it('two concurrent approvals move the money once', async () => {
    const c = await fundedCustomer('100');
    const held = await call(admin, 'PUT', `/api/admin/balance/${c.wallet}`, {
      amount: '5000',
      type: 'add',
      reason: 'Goodwill credit',
    });
    expect(held.statusCode, held.body).toBe(202);
    expect(await balanceOf(c.wallet)).toBe('100.00000000');
    const { approvalId } = held.json();
    const results = await Promise.all(
      [admin2, admin3, admin2, admin3].map((cookie) =>
        call(cookie, 'POST', `/api/admin/approvals/${approvalId}/approve`),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409]);
    expect(await balanceOf(c.wallet)).toBe('5100.00000000');
    expect(await kindsOf(c.wallet)).toEqual(['adjustment', 'adjustment']);
    await consistent(c.wallet);
  });

  it('a subtraction no longer covered at approval time fails with the message and stays pending', async () => {
    const c = await fundedCustomer('3000');
    const held = await call(admin, 'PUT', `/api/admin/balance/${c.wallet}`, {
      amount: '2500',
      type: 'subtract',
      reason: 'Chargeback',
    });
    expect(held.statusCode).toBe(202);
    const { approvalId } = held.json();
    // Below the threshold: done at once, leaving too little for the held subtraction.
    const small = await call(admin, 'PUT', `/api/admin/balance/${c.wallet}`, {
      amount: '900',
      type: 'subtract',
      reason: 'Fee',
    });
    expect(small.statusCode).toBe(200);
    const res = await call(admin2, 'POST', `/api/admin/approvals/${approvalId}/approve`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/below zero/);
    expect((await requestOf(approvalId)).status).toBe('pending');
    expect(await balanceOf(c.wallet)).toBe('2100.00000000');
    await consistent(c.wallet);
  });

  it("managers request and approve for their own customers only; another manager's customer is not found", async () => {
    const [client] = await t.ctx.db.select().from(users).where(eq(users.email, DEMO.client));
    const [wallet] = await t.ctx.db
      .select()
      .from(balances)
      .where(and(eq(balances.userId, client.id), eq(balances.mode, 'real')));
    const before = await balanceOf(wallet.id);
    const held = await call(manager, 'PUT', `/api/admin/balance/${wallet.id}`, {
      amount: '1500',
      type: 'add',
      reason: 'Bonus',
    });
    expect(held.statusCode, held.body).toBe(202);
    const { approvalId } = held.json();
    expect((await call(manager, 'POST', `/api/admin/approvals/${approvalId}/approve`)).statusCode).toBe(403);
    const stranger = await call(admin, 'POST', '/api/admin/users', {
      fullName: 'Other Manager',
      email: 'other.manager@example.test',
      password: 'Other12345!',
      roleId: 2,
      whitelist: '',
      isEmailVerified: true,
      isActive: true,
    });
    expect(stranger.statusCode).toBe(201);
    const other = await signIn(t.app, 'other.manager@example.test', 'Other12345!');
    expect((await call(other, 'POST', `/api/admin/approvals/${approvalId}/approve`)).statusCode).toBe(404);
    expect((await call(other, 'GET', '/api/admin/approvals')).json().data).toEqual([]);
    expect(await balanceOf(wallet.id)).toBe(before);
    const ok = await call(admin, 'POST', `/api/admin/approvals/${approvalId}/approve`);
    expect(ok.statusCode, ok.body).toBe(200);
    await consistent(wallet.id);
  });
});

describe('a bank deposit above the threshold', () => {
  it('is credited once, when a second admin approves; the override reason travels with the request', async () => {
    const put = await call(admin, 'PUT', '/api/admin/approvals/settings', {
      withdrawal: '100',
      balanceAdjustment: '1000',
      deposit: '100',
      planChange: true,
      gatewaySecrets: true,
    });
    expect(put.statusCode).toBe(200);
    const c = await fundedCustomer('10');
    const made = await call(c.cookie, 'POST', '/api/deposits', {
      balance_id: c.wallet,
      amount: '250',
      gateway: 'bank',
    });
    expect(made.statusCode, made.body).toBe(200);
    const id = made.json().id as number;
    const held = await call(admin, 'POST', `/api/admin/deposits/${id}/approve`, {
      overrideReason: 'Seen on the statement',
    });
    expect(held.statusCode, held.body).toBe(202);
    const { approvalId } = held.json();
    expect(await balanceOf(c.wallet)).toBe('10.00000000');
    expect((await requestOf(approvalId)).reason).toBe('Seen on the statement');
    expect((await call(admin, 'POST', `/api/admin/approvals/${approvalId}/approve`)).statusCode).toBe(403);
    const ok = await call(admin2, 'POST', `/api/admin/approvals/${approvalId}/approve`);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await balanceOf(c.wallet)).toBe('260.00000000');
    expect(await kindsOf(c.wallet)).toEqual(['adjustment', 'deposit']);
    await consistent(c.wallet);
    // Below the threshold: approved at once, as before.
    const small = await call(c.cookie, 'POST', '/api/deposits', {
      balance_id: c.wallet,
      amount: '40',
      gateway: 'bank',
    });
    const direct = await call(admin, 'POST', `/api/admin/deposits/${small.json().id}/approve`, {
      overrideReason: 'Seen on the statement',
    });
    expect(direct.statusCode, direct.body).toBe(200);
    expect(await balanceOf(c.wallet)).toBe('300.00000000');
    await consistent(c.wallet);
  });
});

describe('switches without an amount', () => {
  it("a customer's new plan and a gateway's new secret wait for a second admin", async () => {
    const c = await fundedCustomer('10');
    const [plan] = await t.ctx.db.select().from(pricingPlans).orderBy(desc(pricingPlans.id)).limit(1);
    const [u0] = await t.ctx.db.select().from(users).where(eq(users.id, c.id));
    expect(u0.pricingTableId).not.toBe(plan.id);
    const put = await call(admin, 'PUT', `/api/admin/customers/${c.id}`, {
      fullName: 'Renamed Customer',
      email: c.email,
      isEmailVerified: true,
      isActive: true,
      country: 'United Kingdom',
      pricingTableId: plan.id,
    });
    expect(put.statusCode, put.body).toBe(202);
    expect(put.json().message).toMatch(/^Customer updated; the new pricing plan is sent for approval/);
    const [u1] = await t.ctx.db.select().from(users).where(eq(users.id, c.id));
    expect(u1.fullName).toBe('Renamed Customer');
    expect(u1.pricingTableId).toBe(u0.pricingTableId);
    const { approvalId } = put.json();
    expect((await call(manager, 'POST', `/api/admin/approvals/${approvalId}/approve`)).statusCode).toBe(404);
    expect((await call(admin2, 'POST', `/api/admin/approvals/${approvalId}/approve`)).statusCode).toBe(200);
    const [u2] = await t.ctx.db.select().from(users).where(eq(users.id, c.id));
    expect(u2.pricingTableId).toBe(plan.id);

    const gw = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/gateways/stripe',
      headers: { cookie: admin, 'content-type': 'multipart/form-data; boundary=XYZ' },
      payload:
        '--XYZ\r\nContent-Disposition: form-data; name="key2"\r\n\r\nsk_test_new_secret_value_123\r\n--XYZ--\r\n',
    });
    expect(gw.statusCode, gw.body).toBe(202);
    const { approvalId: gwId } = gw.json();
    const [g0] = await t.ctx.db.select().from(paymentGateways).where(eq(paymentGateways.kind, 'stripe'));
    expect(g0?.key2 ?? null).not.toBe('sk_test_new_secret_value_123');
    const listed = (await call(admin2, 'GET', '/api/admin/approvals')).json();
    expect(JSON.stringify(listed)).not.toContain('sk_test_new_secret_value_123');
    expect((await call(admin2, 'POST', `/api/admin/approvals/${gwId}/approve`)).statusCode).toBe(200);
    const [g1] = await t.ctx.db.select().from(paymentGateways).where(eq(paymentGateways.kind, 'stripe'));
    expect(g1.key2).toBe('sk_test_new_secret_value_123');
  });
});

describe('approvals API input', () => {
  it('answers 404 for an unknown id, 400 for a bad one or status, 403 to other roles', async () => {
    expect((await call(admin2, 'POST', '/api/admin/approvals/999999/approve')).statusCode).toBe(404);
    expect((await call(admin2, 'POST', '/api/admin/approvals/abc/approve')).statusCode).toBe(400);
    expect((await call(admin2, 'GET', '/api/admin/approvals?status=maybe')).statusCode).toBe(400);
    const client = await signIn(t.app, DEMO.client);
    expect((await call(client, 'GET', '/api/admin/approvals')).statusCode).toBe(403);
    expect((await call(client, 'POST', '/api/admin/approvals/1/approve')).statusCode).toBe(403);
  });
});
