import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { createTestApp, DEMO, newVerifiedCustomer, signIn, type TestApp } from './helpers.ts';
import { balances, userProfiles, users } from '../src/db/schema.ts';

let t: TestApp;
let admin: string;
let manager: string;
let managed: { id: number; email: string };
let other: { id: number; email: string };

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, DEMO.admin);
  manager = await signIn(t.app, DEMO.manager);
  managed = await newVerifiedCustomer(t, 'managed');
  other = await newVerifiedCustomer(t, 'other');
  const [m] = await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO.manager));
  await t.ctx.db.update(userProfiles).set({ managerId: m.id }).where(eq(userProfiles.userId, managed.id));
  // A name a spreadsheet would run as a formula.
  await t.ctx.db.update(users).set({ fullName: '=HYPERLINK("http://evil.test","x")' }).where(eq(users.id, other.id));
  // 1,200 pending bank withdrawals on each customer's real wallet: more than one batch of the export.
  for (const c of [managed, other]) {
    const [w] = await t.ctx.db
      .select({ id: balances.id })
      .from(balances)
      .where(and(eq(balances.userId, c.id), eq(balances.mode, 'real')));
    await t.ctx.db.execute(sql`
      insert into withdrawals (user_id, balance_id, amount, fee, total, currency, bank_name, account_name, account_number, swift_code, bank_country, balance_after)
      select ${c.id}, ${w.id}, 10, 0, 10, 'USD', 'Bank', 'Holder', 'ACC' || g, 'SWIFTXX', 'United Kingdom', 0 from generate_series(1, 1200) g`);
  }
});
afterAll(() => t.close());

const csv = async (url: string, cookie: string) => {
  const res = await t.app.inject({ method: 'GET', url, headers: { cookie } });
  return {
    res,
    rows:
      res.statusCode === 200 ? (parse(res.body, { bom: true, columns: true }) as Array<Record<string, string>>) : [],
  };
};

describe('CSV exports of the back-office lists', () => {
  it("streams every matching row of a list, beyond one batch, with the screen's columns", async () => {
    const { res, rows } = await csv('/api/admin/withdraws/api/pending?format=csv', admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/csv/);
    expect(res.headers['content-disposition']).toMatch(
      /attachment; filename="withdrawals-pending-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const json = (
      await t.app.inject({ method: 'GET', url: '/api/admin/withdraws/api/pending', headers: { cookie: admin } })
    ).json();
    expect(rows.length).toBe(json.meta.total);
    expect(rows.length).toBeGreaterThanOrEqual(2400);
    expect(Object.keys(rows[0])).toEqual([
      'ID',
      'Date',
      'User ID',
      'User',
      'Gateway',
      'Description',
      'Reference',
      'Wallet',
      'Amount',
      'Fee',
      'Total',
      'Status',
      'Decline Reason',
      'Reviewed At',
    ]);
    expect(new Set(rows.map((r) => r.ID)).size).toBe(rows.length);
  });

  it("keeps the caller's scope and search: a manager exports only their customers' rows", async () => {
    const { rows } = await csv('/api/admin/withdraws/api/pending?format=csv', manager);
    expect(rows.length).toBeGreaterThanOrEqual(1200);
    expect(rows.every((r) => Number(r['User ID']) !== other.id)).toBe(true);
    const searched = await csv(
      `/api/admin/customers/api/all?format=csv&search=${encodeURIComponent(managed.email)}`,
      admin,
    );
    expect(searched.rows.map((r) => r.Email)).toEqual([managed.email]);
  });

  it('neutralises spreadsheet formulas in cells', async () => {
    const { rows } = await csv(
      `/api/admin/customers/api/all?format=csv&search=${encodeURIComponent(other.email)}`,
      admin,
    );
    expect(rows[0]['Full Name']).toBe(`'=HYPERLINK("http://evil.test","x")`);
  });

  it('exports staff, KYC, deposits, instruments and external payments too, and refuses whoever may not read the list', async () => {
    for (const url of [
      '/api/admin/users/api?format=csv',
      '/api/admin/kyc/api?format=csv',
      '/api/admin/deposits/api/history?format=csv',
      '/api/admin/withdraws/api/history?format=csv',
      '/api/admin/instruments/api/forex?format=csv',
      '/api/admin/externalPayments/api?format=csv',
    ]) {
      const { res } = await csv(url, admin);
      expect(res.statusCode, url).toBe(200);
    }
    expect((await csv('/api/admin/users/api?format=csv', manager)).res.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/customers/api/all?format=csv' })).statusCode).toBe(
      401,
    );
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/admin/users/api?format=xlsx',
      headers: { cookie: admin },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Unknown format');
  });
});
