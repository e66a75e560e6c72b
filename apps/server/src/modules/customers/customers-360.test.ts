import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { DEMO, type TestApp } from '../../../test/helpers.ts';
import { balances, users } from '../../db/schema.ts';
import type { RiskService } from '../../engine/risk-service.ts';
import { customersKit } from './customers-testing.ts';

/**
 * Customer 360 in the customers list: sorted and filtered on the server by the main real wallet's balance and
 * equity, the first deposit, the KYC state, the last sign-in and presence, within the staff member's scope.
 */
let t: TestApp;
const { idOf, call, create, start } = customersKit();
type Row = { id: number; full_name: string; balance: string; equity: string; kyc_status: string };

/** Five customers named "Quill{n}" with known figures (written straight to their rows, as the sources keep them). */
const figures = [
  { name: 'Quill A', balance: '500', pl: '250', kyc: 'pending', ftd: '2026-01-10', amount: '300', login: '2026-03-01' },
  { name: 'Quill B', balance: '900', pl: '-600', kyc: 'approved', ftd: '2026-02-20', amount: '1000', login: null },
  { name: 'Quill C', balance: '100', pl: '0', kyc: 'pending', ftd: null, amount: null, login: '2026-03-05' },
  { name: 'Quill D', balance: '2000', pl: '-10', kyc: 'none', ftd: null, amount: null, login: '2026-02-01' },
  { name: 'Quill E', balance: '700', pl: '100', kyc: 'declined', ftd: '2026-01-31', amount: '50', login: null },
] as const;
const ids = new Map<string, number>();
const names = (rows: Row[]) => rows.map((r) => r.full_name);
const list = async (query: string, role = 1) => {
  const res = await call(role, 'GET', `/admin/customers/api/all?search=Quill&${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: Row[]; meta: { total: number } };
};

beforeAll(async () => {
  t = await start();
  // The figures are written straight to the rows below; the engine's snapshot writer would put the floating P/L of
  // these wallets without positions back to 0 (as it should), so it stops here.
  await (t.ctx.risk as RiskService).snapshots.stop();
  for (const f of figures) {
    // The manager adds A and C (so they are theirs); the admin adds the others.
    const { id } = await create(f.name === 'Quill A' || f.name === 'Quill C' ? 2 : 1, { fullName: f.name });
    ids.set(f.name, id);
    await t.ctx.db
      .update(balances)
      .set({ balance: f.balance, floatingPl: f.pl })
      .where(and(eq(balances.userId, id), eq(balances.main, true)));
    await t.ctx.db
      .update(users)
      .set({
        kycStatus: f.kyc,
        ftdAt: f.ftd ? new Date(`${f.ftd}T12:00:00Z`) : null,
        ftdAmount: f.amount,
        ftdCurrency: f.amount ? 'USD' : null,
        lastLoginAt: f.login ? new Date(`${f.login}T08:00:00Z`) : null,
      })
      .where(eq(users.id, id));
  }
});
afterAll(async () => t.close());

describe('customers list, Customer 360', () => {
  it('shows each customer its main wallet, first deposit, KYC state and last sign-in', async () => {
    const { data } = await list('sort=equity');
    expect(data[0]).toMatchObject({
      full_name: 'Quill D',
      balance: '2000.00000000',
      equity: '2000.00',
      kyc_status: 'none',
      ftd_at: null,
      last_login_at: '2026-02-01T08:00:00.000Z',
      online: false,
    });
    expect(data.find((r) => r.full_name === 'Quill A')).toMatchObject({
      ftd_at: '2026-01-10T12:00:00.000Z',
      ftd_amount: '300.00000000',
      ftd_currency: 'USD',
      kyc_status: 'pending',
    });
  });

  it('sorts by equity and balance in both directions, across pages', async () => {
    // Equity as stored: balance + floating P/L (A 750, B 300, C 100, D 1990, E 800).
    expect(names((await list('sort=equity&dir=desc')).data)).toEqual([
      'Quill D',
      'Quill E',
      'Quill A',
      'Quill B',
      'Quill C',
    ]);
    expect(names((await list('sort=equity&dir=asc')).data)).toEqual([
      'Quill C',
      'Quill B',
      'Quill A',
      'Quill E',
      'Quill D',
    ]);
    expect(names((await list('sort=balance&dir=desc')).data)).toEqual([
      'Quill D',
      'Quill B',
      'Quill E',
      'Quill A',
      'Quill C',
    ]);
    expect(names((await list('sort=equity&dir=desc&limit=2&page=2')).data)).toEqual(['Quill A', 'Quill B']);
    expect((await list('sort=equity&dir=desc&limit=2&page=3')).meta.total).toBe(5);
  });

  it('lists customers without the figure after those with it, newest first, whichever the direction', async () => {
    expect(names((await list('sort=ftd_at&dir=desc')).data)).toEqual([
      'Quill B',
      'Quill E',
      'Quill A',
      'Quill D',
      'Quill C',
    ]);
    expect(names((await list('sort=ftd_at&dir=asc')).data)).toEqual([
      'Quill A',
      'Quill E',
      'Quill B',
      'Quill C',
      'Quill D',
    ]);
    expect(names((await list('sort=ftd_amount&dir=desc')).data)).toEqual([
      'Quill B',
      'Quill A',
      'Quill E',
      'Quill D',
      'Quill C',
    ]);
    expect(names((await list('sort=last_login_at&dir=desc')).data)).toEqual([
      'Quill C',
      'Quill A',
      'Quill D',
      'Quill E',
      'Quill B',
    ]);
    // Pages that straddle the end of the customers with a first deposit, and lie past it.
    expect(names((await list('sort=ftd_at&dir=desc&limit=2&page=2')).data)).toEqual(['Quill A', 'Quill D']);
    expect(names((await list('sort=ftd_at&dir=desc&limit=2&page=3')).data)).toEqual(['Quill C']);
    // KYC states in alphabetical order (approved, declined, none, pending); equals by id in the same direction.
    expect(names((await list('sort=kyc_status&dir=asc')).data)).toEqual([
      'Quill B',
      'Quill E',
      'Quill D',
      'Quill A',
      'Quill C',
    ]);
    expect(names((await list('sort=kyc_status&dir=desc')).data)).toEqual([
      'Quill C',
      'Quill A',
      'Quill D',
      'Quill E',
      'Quill B',
    ]);
  });

  it('filters by KYC state, first deposit, balance and equity ranges, and presence', async () => {
    expect(names((await list('kyc=pending&sort=equity')).data)).toEqual(['Quill A', 'Quill C']);
    expect(names((await list('ftd=no')).data)).toEqual(['Quill D', 'Quill C']);
    expect(names((await list('ftd=yes&sort=ftd_amount&dir=asc')).data)).toEqual(['Quill E', 'Quill A', 'Quill B']);
    expect(names((await list('ftdFrom=2026-01-31&ftdTo=2026-02-20')).data)).toEqual(['Quill E', 'Quill B']);
    expect(names((await list('balanceMin=500&balanceMax=900&sort=balance&dir=asc')).data)).toEqual([
      'Quill A',
      'Quill E',
      'Quill B',
    ]);
    expect(names((await list('equityMin=-1&equityMax=300.00&sort=equity')).data)).toEqual(['Quill B', 'Quill C']);
    const filtered = await list('kyc=pending&ftd=yes');
    expect(names(filtered.data)).toEqual(['Quill A']);
    expect(filtered.meta.total).toBe(1);
    // Nobody has a socket open in this test: nobody is online, everybody offline.
    expect((await list('online=yes')).data).toEqual([]);
    expect((await list('online=no')).meta.total).toBe(5);
    expect((await list('sort=online')).meta.total).toBe(5);
  });

  it('keeps a manager to their own customers whatever the sort and filters', async () => {
    expect(names((await list('sort=equity&dir=desc', 2)).data)).toEqual(['Quill A', 'Quill C']);
    expect(names((await list('kyc=pending&sort=balance&dir=asc', 2)).data)).toEqual(['Quill C', 'Quill A']);
    expect(names((await list('ftd=yes&sort=ftd_at', 2)).data)).toEqual(['Quill A']);
    // The demo manager's own demo client is theirs too (no "Quill" search here).
    const all = (await call(2, 'GET', '/admin/customers/api/all?sort=equity&limit=100')).json() as { data: Row[] };
    expect(all.data.map((r) => r.id)).toContain(await idOf(DEMO.client));
    expect(all.data.map((r) => r.id)).not.toContain(ids.get('Quill D'));
  });

  it('answers 400 to unknown sorts, directions, states, malformed amounts and dates, and crossed ranges', async () => {
    for (const q of [
      'sort=password_hash',
      'sort=equity&dir=sideways',
      'kyc=verified',
      'ftd=maybe',
      'online=1',
      'balanceMin=ten',
      'equityMax=1e6',
      'ftdFrom=2026-13-01',
      'balanceMin=10&balanceMax=5',
      'equityMin=0.5&equityMax=0.25',
      'ftdFrom=2026-02-01&ftdTo=2026-01-01',
    ]) {
      const res = await call(1, 'GET', `/admin/customers/api/all?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().message, q).toEqual(expect.any(String));
    }
    // Other roles are still refused the list itself.
    for (const role of [4, 5, 6])
      expect((await call(role, 'GET', '/admin/customers/api/all?sort=equity')).statusCode).toBe(403);
  });

  it('exports the filtered customers (newest first) with their figures', async () => {
    const res = await call(1, 'GET', '/admin/customers/api/all?search=Quill&kyc=pending&sort=equity&format=csv');
    expect(res.statusCode).toBe(200);
    const lines = res.body.trim().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('Quill C');
    expect(lines[2]).toContain('Quill A');
  });

  it('shows the equity live from the risk engine beside the stored balance', async () => {
    const a = ids.get('Quill A')!;
    const [wallet] = await t.ctx.db
      .select({ id: balances.id })
      .from(balances)
      .where(and(eq(balances.userId, a), eq(balances.main, true)));
    const risk = t.ctx.risk;
    t.ctx.risk = { ...risk, unrealizedPl: (id) => (id === wallet.id ? 12.346 : 0) };
    try {
      const row = (await list('kyc=pending&sort=equity')).data.find((r) => r.id === a)!;
      expect(row).toMatchObject({ balance: '500.00000000', equity: '512.35' });
    } finally {
      t.ctx.risk = risk;
    }
  });
});
