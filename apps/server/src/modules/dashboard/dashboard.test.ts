import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { dec } from '@platform/domain';
import { createTestApp, DEMO, signIn, type TestApp } from '../../../test/helpers.ts';
import { balances, deposits, orders, users, withdrawals } from '../../db/schema.ts';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  // A month of demo activity: customers, deposits, withdrawals and trades on real and demo wallets.
  t = await createTestApp({ DEMO_ACTIVITY: 'true' });
  admin = await signIn(t.app, DEMO.admin);
});
afterAll(() => t.close());

const get = (q = '', cookie = admin) =>
  t.app.inject({ method: 'GET', url: `/api/admin/dashboard${q}`, headers: { cookie } });
const inRange = (d: Date | null, from?: string, to?: string) =>
  !!d &&
  (!from || d >= new Date(`${from}T00:00:00Z`)) &&
  (!to || d < new Date(new Date(`${to}T00:00:00Z`).getTime() + 86_400_000));

/** The same figures computed here from plain rows, to check the server's aggregates. */
async function expected(from?: string, to?: string) {
  const wallets = new Map((await t.ctx.db.select().from(balances)).map((b) => [b.id, b]));
  const real = (balanceId: number) =>
    wallets.get(balanceId)?.mode === 'real' && wallets.get(balanceId)?.currency === 'USD';
  const sum = (xs: Array<{ amount: string }>) => xs.reduce((a, x) => a.plus(x.amount), dec(0)).toFixed(2);
  const dep = (await t.ctx.db.select().from(deposits)).filter(
    (d) => d.status === 'approved' && real(d.balanceId) && inRange(d.createdAt, from, to),
  );
  const wd = (await t.ctx.db.select().from(withdrawals)).filter(
    (w) => w.status === 'approved' && real(w.balanceId) && inRange(w.createdAt, from, to),
  );
  const all = await t.ctx.db.select().from(orders);
  const realTrades = all.filter((o) => !o.voidedAt && wallets.get(o.balanceId)?.mode === 'real');
  const pl = realTrades
    .filter((o) => real(o.balanceId) && o.closeTime && inRange(o.closeTime, from, to))
    .reduce((a, o) => a.plus(o.proLoss ?? 0), dec(0));
  const customers = (await t.ctx.db.select().from(users).where(eq(users.roleId, 3))).filter(
    (u) => !u.deletedAt && inRange(u.createdAt, from, to),
  );
  return {
    totalDeposits: sum(dep),
    totalWithdraws: sum(wd),
    totalTrades: realTrades.filter((o) => inRange(o.createdAt, from, to)).length,
    totalUsers: customers.length,
    totalProLoss: pl.negated().toFixed(2),
  };
}

describe('admin dashboard', () => {
  it('equals sums computed from the tables, for all time and for several ranges', async () => {
    const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
    for (const [from, to] of [
      [undefined, undefined],
      [day(10), day(0)],
      [day(30), day(15)],
      [day(3), day(3)],
    ] as const) {
      const q = [from && `from=${from}`, to && `to=${to}`].filter(Boolean).join('&');
      const res = await get(q ? `?${q}` : '');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json(), q).toMatchObject(await expected(from, to));
    }
    const all = (await get()).json();
    expect(Number(all.totalDeposits)).toBeGreaterThan(0);
    expect(all.totalTrades).toBeGreaterThan(0);
    expect(all.currency).toBe('USD');
    expect(all.last7DaysTransactions.categories).toHaveLength(7);
    expect(all.last7DaysTransactions.series.map((s: { name: string }) => s.name)).toEqual(['Deposits', 'Withdraws']);
    expect(all.tradeEngagement.categories).toEqual(['forex', 'commodity', 'index', 'stock', 'crypto']);
    expect(all.tradeEngagement.data.reduce((a: number, b: number) => a + b, 0)).toBe(all.totalTrades);
  });

  it('leaves demo wallets out and lists other currencies beside the app currency', async () => {
    const before = (await get()).json();
    const [demo] = await t.ctx.db.select().from(balances).where(eq(balances.mode, 'demo')).limit(1);
    const [u] = await t.ctx.db.select().from(users).where(eq(users.id, demo.userId));
    // Money never moves on a demo wallet: the database itself refuses it, so the totals need no join to leave them out.
    const onDemo = t.ctx.db.insert(deposits).values({
      userId: u.id,
      balanceId: demo.id,
      gateway: 'stripe',
      amount: '777',
      fee: '0',
      total: '777',
      currency: 'USD',
      status: 'approved',
      reference: 'DASH-DEMO',
    });
    await expect(onDemo).rejects.toThrow();
    expect((await get()).json().totalDeposits).toBe(before.totalDeposits);
    const [eur] = await t.ctx.db
      .insert(balances)
      .values({ userId: u.id, mode: 'real', currency: 'EUR', balance: '0' })
      .returning();
    await t.ctx.db.insert(deposits).values({
      userId: u.id,
      balanceId: eur.id,
      gateway: 'bank',
      amount: '300',
      fee: '0',
      total: '300',
      currency: 'EUR',
      status: 'approved',
      reference: 'DASH-EUR',
    });
    const after = (await get()).json();
    expect(after.totalDeposits).toBe(before.totalDeposits);
    expect(after.otherCurrencies).toContainEqual({
      currency: 'EUR',
      deposits: '300.00',
      withdraws: '0.00',
      proLoss: '0.00',
    });
    await t.ctx.db.delete(deposits).where(and(eq(deposits.reference, 'DASH-EUR')));
  });

  it('is for admins only and refuses bad dates', async () => {
    expect((await get('', await signIn(t.app, DEMO.manager))).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/dashboard' })).statusCode).toBe(401);
    expect((await get('?from=2024-02-30')).statusCode).toBe(400);
    expect((await get('?from=2024-03-02&to=2024-03-01')).json().message).toBe('From must not be after To');
  });
});
