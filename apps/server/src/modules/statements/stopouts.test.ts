import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { dec } from '@platform/domain';
import { createTestApp, DEMO, newVerifiedCustomer, signIn, type TestApp } from '../../../test/helpers.ts';
import { balances, stopoutReports, userProfiles, users } from '../../db/schema.ts';
import { cellDec, readWorkbook } from './statement-testing.ts';

/**
 * Stop-out reports as the client reads them (Statements → Stop-outs) and staff on the customer's page, and the
 * customer's statement in the back office: admins for anyone, managers for their own customers, others not at all.
 */
let t: TestApp;
let admin: string;
let manager: string;
let client: { id: number; cookie: string; real: number; demo: number };
let stranger: { id: number; cookie: string; real: number };

const get = (url: string, cookie: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });

async function customer(prefix: string) {
  const who = await newVerifiedCustomer(t, prefix);
  const cookie = await signIn(t.app, who.email, who.password);
  const wallets = await t.ctx.db.select().from(balances).where(eq(balances.userId, who.id));
  const real = wallets.find((w) => w.mode === 'real')?.id as number;
  const demo = wallets.find((w) => w.mode === 'demo')?.id as number;
  return { id: who.id, cookie, real, demo };
}

const report = (userId: number, balanceId: number, at: string, level: string, credit = '0') => ({
  userId,
  balanceId,
  marginLevel: level,
  equity: '45.5',
  balance: '1000',
  protectionCredit: credit,
  createdAt: new Date(at),
  positions: [
    { id: 101, instrument: 'EUR_USD', side: 'buy' as const, amount: '100000', price: '1.0712', pl: '-842.3' },
    { id: 102, instrument: 'XAU_USD', side: 'sell' as const, amount: '2', price: '2671.4', pl: '-120.25' },
  ],
});

beforeAll(async () => {
  t = await createTestApp({ MARKET_FEED: 'false' });
  admin = await signIn(t.app, DEMO.admin);
  manager = await signIn(t.app, DEMO.manager);
  client = await customer('stopout');
  stranger = await customer('stranger');
  await t.ctx.db
    .insert(stopoutReports)
    .values([
      report(client.id, client.demo, '2026-01-05T10:00:00Z', '48.2'),
      report(client.id, client.real, '2026-02-07T14:30:00Z', '31.75', '12.5'),
      report(client.id, client.demo, '2026-03-09T08:15:00Z', '49.99'),
      report(stranger.id, stranger.real, '2026-03-10T08:15:00Z', '20'),
    ]);
});
afterAll(() => t.close());

describe('stop-out reports', () => {
  it("lists the client's own reports newest first, paged, with each closed position", async () => {
    const res = await get('/api/statements/stopouts?limit=2', client.cookie);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.meta).toMatchObject({ total: 3, per_page: 2, page: 1 });
    expect(body.data.map((r: { margin_level: string }) => dec(r.margin_level).toString())).toEqual(['49.99', '31.75']);
    const [, real] = body.data;
    expect(real).toMatchObject({ wallet_id: client.real, currency: 'USD', mode: 'real' });
    expect(real.created_at).toBe('2026-02-07T14:30:00.000Z');
    expect(dec(real.protection_credit).toString()).toBe('12.5');
    expect(dec(real.equity).toString()).toBe('45.5');
    expect(real.positions).toEqual([
      { id: 101, instrument: 'EUR_USD', side: 'buy', amount: '100000', price: '1.0712', pl: '-842.3' },
      { id: 102, instrument: 'XAU_USD', side: 'sell', amount: '2', price: '2671.4', pl: '-120.25' },
    ]);
    const page2 = (await get('/api/statements/stopouts?limit=2&page=2', client.cookie)).json();
    expect(page2.data.map((r: { created_at: string }) => r.created_at)).toEqual(['2026-01-05T10:00:00.000Z']);
  });

  it("filters by one of their wallets; another user's wallet is 404 and bad paging 400", async () => {
    const demo = (await get(`/api/statements/stopouts?walletId=${client.demo}`, client.cookie)).json();
    expect(demo.meta.total).toBe(2);
    const theirs = await get(`/api/statements/stopouts?walletId=${stranger.real}`, client.cookie);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().message).toBe('Wallet not found.');
    for (const q of ['limit=0', 'limit=101', 'page=0', 'walletId=x'])
      expect((await get(`/api/statements/stopouts?${q}`, client.cookie)).statusCode, q).toBe(400);
    // A client sees none of another's reports.
    const mine = (await get('/api/statements/stopouts', stranger.cookie)).json();
    expect(mine.data.map((r: { wallet_id: number }) => r.wallet_id)).toEqual([stranger.real]);
  });

  it("staff read a customer's reports: admins any, managers their own customers, others not", async () => {
    const url = `/api/admin/customers/${client.id}/stopouts`;
    const byAdmin = await get(url, admin);
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.json().meta.total).toBe(3);
    const notTheirs = await get(url, manager);
    expect(notTheirs.statusCode).toBe(404);
    expect(notTheirs.json().message).toBe('Customer not found.');
    const [m] = await t.ctx.db.select().from(users).where(eq(users.email, DEMO.manager));
    await t.ctx.db.update(userProfiles).set({ managerId: m.id }).where(eq(userProfiles.userId, client.id));
    expect((await get(url, manager)).json().meta.total).toBe(3);
    expect((await get(`${url}?walletId=${stranger.real}`, admin)).statusCode).toBe(404);
    expect((await get(url, await signIn(t.app, DEMO.retention))).statusCode).toBe(403);
    expect((await get(url, client.cookie)).statusCode).toBe(403);
    expect((await get('/api/admin/customers/999999/stopouts', admin)).statusCode).toBe(404);
  });
});

describe("a customer's statement in the back office", () => {
  it("gives staff the same statement of any wallet of the customer, in the manager's scope only", async () => {
    const url = (format: string, walletId = client.demo) =>
      `/api/admin/customers/${client.id}/statement?format=${format}&walletId=${walletId}`;
    const xlsx = await get(url('xlsx'), admin);
    expect(xlsx.statusCode, xlsx.body).toBe(200);
    expect(xlsx.headers['content-disposition']).toContain(`statement-USD-demo-${client.demo}-all-now.xlsx`);
    const book = await readWorkbook(xlsx.rawPayload);
    const [w] = await t.ctx.db.select().from(balances).where(eq(balances.id, client.demo));
    expect(cellDec(book.summary.get('Closing balance')?.value).toString()).toBe(dec(w.balance).toString());
    expect(book.summary.get('Client ID')?.value).toBe(String(client.id));

    const pdf = await get(url('pdf'), admin);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect((await get(url('csv'), admin)).headers['content-type']).toBe('text/csv; charset=utf-8');

    // The manager was given this customer above; the stranger is no one's.
    expect((await get(url('pdf'), manager)).statusCode).toBe(200);
    const other = await get(`/api/admin/customers/${stranger.id}/statement?format=pdf`, manager);
    expect(other.statusCode).toBe(404);
    expect((await get(url('pdf', stranger.real), admin)).statusCode).toBe(404);
    expect((await get(`${url('pdf')}&dateStart=2025-02-30`, admin)).statusCode).toBe(400);
    expect((await get(url('pdf'), await signIn(t.app, DEMO.agent))).statusCode).toBe(403);
  });
});
