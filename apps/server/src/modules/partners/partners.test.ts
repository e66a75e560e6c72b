import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { dec, levelAmounts } from '@platform/domain';
import {
  createTestApp,
  DEMO,
  newVerifiedCustomer,
  resetWalletTo,
  signIn,
  type TestApp,
} from '../../../test/helpers.ts';
import { balances, ledgerEntries, partnerCommissions, partnerPlans, users } from '../../db/schema.ts';
import { forgetTrader } from '../trading/trader.ts';
import { depthKit } from '../trading/depth-testing.ts';
import { accrueDeals } from './accrual.ts';
import { expectRollUpsMatchDetail, expectSummaryMatchesDetail } from './days-testing.ts';
import { flushPartnerDeals } from './hook.ts';
import { periodOf } from './reports.ts';

/**
 * Partners over the API: a three-level tree (A above B above C), a client of C trading on a real wallet, each level's
 * commission to the cent credited once, a void reversing it, and each partner seeing only their own tree.
 */

let t: TestApp;
let admin: string;
let manager: string;
const kit = depthKit(() => t);
const { price, consistent, risk } = kit;
const partner: Record<'A' | 'B' | 'C' | 'X', { id: number; cookie: string }> = {} as never;
let planId: number;
let client: { id: number; cookie: string; walletId: number };

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie: string, payload?: unknown) =>
  t.app.inject({ method, url: `/api${url}`, headers: { cookie }, ...(payload ? { payload: payload as object } : {}) });

const PLAN = {
  name: 'IB three levels',
  currency: 'USD',
  perLot: { forex: '10', commodity: '1', index: '1', stock: '0', crypto: '2.5' },
  spreadShare: '20',
  commissionShare: '50',
  cpa: '100',
  cpaMinDeposit: '50',
  levels: ['100', '20', '5'],
  countDemo: false,
  minHoldSeconds: 0,
};

async function affiliate(name: string): Promise<{ id: number; cookie: string }> {
  const [demo] = await t.ctx.db.select().from(users).where(eq(users.email, DEMO.affiliate));
  const email = `${name.toLowerCase()}-${Date.now()}@partners.test`;
  const [u] = await t.ctx.db
    .insert(users)
    .values({ fullName: `Partner ${name}`, email, passwordHash: demo.passwordHash, roleId: 4, isEmailVerified: true })
    .returning();
  return { id: u.id, cookie: await signIn(t.app, email) };
}

/** Every partner's commission wallets: balance = Σ ledger. */
async function partnerWalletsConsistent() {
  for (const p of Object.values(partner)) {
    const wallets = await t.ctx.db.select().from(balances).where(eq(balances.userId, p.id));
    for (const w of wallets) await consistent(w.id);
  }
}

const walletOf = async (userId: number) =>
  (
    await t.ctx.db
      .select()
      .from(balances)
      .where(and(eq(balances.userId, userId), eq(balances.mode, 'real')))
  )[0];

/** The daily roll-up equals the commission rows, and every partner's dashboard the figures of their rows. */
async function rollUpMatchesDetail() {
  await expectRollUpsMatchDetail(t.ctx.db);
  const today = new Date().toISOString().slice(0, 10);
  const yearAgo = new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);
  for (const p of Object.values(partner))
    for (const q of [{}, { dateStart: yearAgo, dateEnd: today }, { dateStart: today }])
      await expectSummaryMatchesDetail(t.ctx.db, p.id, periodOf(q));
}

async function settle() {
  await risk().idle();
  await flushPartnerDeals(t.ctx.db);
  await t.ctx.jobs.idle();
}

beforeAll(async () => {
  t = await createTestApp({ MARKET_FEED: 'false' });
  admin = await signIn(t.app, DEMO.admin);
  manager = await signIn(t.app, DEMO.manager);
  for (const name of ['A', 'B', 'C', 'X'] as const) partner[name] = await affiliate(name);
  const who = await newVerifiedCustomer(t, 'partner-client');
  const [real] = await t.ctx.db
    .select()
    .from(balances)
    .where(and(eq(balances.userId, who.id), eq(balances.mode, 'real')));
  await t.ctx.db.update(users).set({ activeBalanceId: real.id }).where(eq(users.id, who.id));
  // Trading on the real wallet without KYC (the KYC-for-trade switch off; settings are read fresh).
  await t.ctx.db.execute(sql`update settings set value3 = 'off' where key = 'kyc'`);
  forgetTrader(t.ctx.db, who.id);
  await resetWalletTo(t, real.id, '10000');
  risk().engine.setWalletBalance(real.id, 10000);
  client = { id: who.id, cookie: await signIn(t.app, who.email, who.password), walletId: real.id };
  price('EUR_USD', 1.1, 1.1002);
});
afterAll(() => t.close());

describe('partners: plans and the tree (admins)', () => {
  it('refuses a plan with bad terms (400 with a message, nothing written) and other roles (403)', async () => {
    const bad = await call('POST', '/admin/partners/plans', admin, { ...PLAN, spreadShare: '120', levels: [] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBeTruthy();
    expect(await t.ctx.db.select().from(partnerPlans)).toEqual([]);
    for (const cookie of [manager, partner.A.cookie, client.cookie])
      expect((await call('POST', '/admin/partners/plans', cookie, PLAN)).statusCode).toBe(403);
    expect((await call('GET', '/admin/partners/report', partner.A.cookie)).statusCode).toBe(403);
  });

  it('creates a plan and builds A > B > C; a loop is a 409 and changes nothing', async () => {
    const made = await call('POST', '/admin/partners/plans', admin, PLAN);
    expect(made.statusCode, made.body).toBe(200);
    planId = made.json().plan.id;
    expect(made.json().plan).toMatchObject({ name: PLAN.name, currency: 'USD' });
    expect(made.json().plan.levels.map(Number)).toEqual([100, 20, 5]);
    const link = (id: number, parentId: number | null) =>
      call('PUT', `/admin/partners/${id}`, admin, { planId, parentId });
    expect((await link(partner.A.id, null)).statusCode).toBe(200);
    expect((await link(partner.B.id, partner.A.id)).statusCode).toBe(200);
    expect((await link(partner.C.id, partner.B.id)).statusCode).toBe(200);
    expect((await link(partner.X.id, null)).statusCode).toBe(200);
    const loop = await link(partner.A.id, partner.C.id);
    expect(loop.statusCode).toBe(409);
    expect((await link(partner.A.id, partner.A.id)).statusCode).toBe(409);
    const tree = (await call('GET', '/admin/partners/tree', admin)).json().data;
    expect(tree.find((n: { userId: number }) => n.userId === partner.A.id).parentId).toBe(null);
    // Not an affiliate: not found.
    expect((await link(client.id, null)).statusCode).toBe(404);
    expect((await call('PUT', `/admin/partners/${partner.B.id}`, admin, { planId: 'x' })).statusCode).toBe(400);
  });

  it('assigns a client to C with a reason (a missing reason is a 400)', async () => {
    const bad = await call('PUT', `/admin/partners/clients/${client.id}`, admin, { partnerId: partner.C.id });
    expect(bad.statusCode).toBe(400);
    const ok = await call('PUT', `/admin/partners/clients/${client.id}`, admin, {
      partnerId: partner.C.id,
      reason: 'Signed the IB agreement',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(
      (await call('PUT', `/admin/partners/clients/${client.id}`, manager, { partnerId: null, reason: 'x' })).statusCode,
    ).toBe(403);
  });
});

describe('partners: accrual', () => {
  let dealId: number;
  let expected: string[];

  it("pays each level the plan's figure to the cent, once, into each partner's commission wallet", async () => {
    const pos = await kit.place(client.cookie, { type: 'buy', instrument: 'EUR_USD', amount: '100000' });
    price('EUR_USD', 1.101, 1.1012);
    const closed = await kit.close(client.cookie, pos.id);
    expect(closed.statusCode, closed.body).toBe(200);
    dealId = pos.id;
    await settle();
    const spread = (await kit.ledgerOf(dealId)).filter((e) => e.kind === 'spread');
    const spreadPaid = spread.reduce((s, e) => s.minus(e.amount), dec(0));
    const commissionPaid = dec((await kit.row(dealId)).commission).negated();
    const base = dec(10).times(1).plus(spreadPaid.times('0.2')).plus(commissionPaid.times('0.5'));
    expected = levelAmounts(base, PLAN.levels).map((d) => d.toFixed(2));
    const rows = await t.ctx.db.select().from(partnerCommissions).where(eq(partnerCommissions.dealId, dealId));
    expect(rows.map((r) => [r.level, r.partnerId, dec(r.amount).toFixed(2)]).sort()).toEqual(
      [
        [1, partner.C.id, expected[0]],
        [2, partner.B.id, expected[1]],
        [3, partner.A.id, expected[2]],
      ].sort(),
    );
    for (const [i, p] of [partner.C, partner.B, partner.A].entries())
      expect(dec((await walletOf(p.id)).balance).toFixed(2)).toBe(expected[i]);
    await partnerWalletsConsistent();
    await consistent(client.walletId);
  });

  it('changes nothing when the deal is accrued again (a retry, another instance)', async () => {
    expect(await accrueDeals(t.ctx, [dealId, dealId])).toBe(0);
    await t.ctx.jobs.send('partners.accrue', { dealIds: [dealId] });
    await t.ctx.jobs.idle();
    const rows = await t.ctx.db.select().from(partnerCommissions).where(eq(partnerCommissions.dealId, dealId));
    expect(rows).toHaveLength(3);
    expect(dec((await walletOf(partner.C.id)).balance).toFixed(2)).toBe(expected[0]);
    const entries = await t.ctx.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.kind, 'partner_commission'), eq(ledgerEntries.refId, dealId)));
    expect(entries).toHaveLength(3);
  });

  it('lists the commission wallet in /auth/user like any wallet', async () => {
    const me = (await call('GET', '/auth/user', partner.C.cookie)).json();
    const wallets = me.balances ?? me.user?.balances;
    expect(JSON.stringify(wallets)).toContain(String((await walletOf(partner.C.id)).id));
  });

  it('lets each partner see only their own clients, tree and statement', async () => {
    const mine = (await call('GET', '/affiliate/partner/clients', partner.C.cookie)).json();
    expect(mine.data.map((c: { id: number }) => c.id)).toEqual([client.id]);
    expect((await call('GET', `/affiliate/partner/clients/${client.id}`, partner.C.cookie)).statusCode).toBe(200);
    expect((await call('GET', `/affiliate/partner/clients/${client.id}`, partner.A.cookie)).statusCode).toBe(404);
    expect((await call('GET', `/affiliate/partner/clients/${client.id}`, partner.X.cookie)).statusCode).toBe(404);
    const subs = (await call('GET', '/affiliate/partner/subpartners', partner.A.cookie)).json().data;
    expect(subs.map((s: { userId: number; level: number }) => [s.userId, s.level])).toEqual([
      [partner.B.id, 1],
      [partner.C.id, 2],
    ]);
    expect(subs[1].earnedYou).toEqual([{ currency: 'USD', amount: dec(expected[2]).toFixed(8) }]);
    expect((await call('GET', `/affiliate/partner/subpartners/${partner.A.id}`, partner.C.cookie)).statusCode).toBe(
      404,
    );
    expect((await call('GET', `/affiliate/partner/subpartners/${partner.C.id}`, partner.X.cookie)).statusCode).toBe(
      404,
    );
    expect((await call('GET', '/affiliate/partner/subpartners', partner.X.cookie)).json().data).toEqual([]);
    const statement = (await call('GET', '/affiliate/partner/commissions', partner.B.cookie)).json();
    expect(statement.data).toHaveLength(1);
    expect(statement.data[0]).toMatchObject({ dealId, level: 2, instrument: 'EUR_USD', lots: '1.00000000' });
    expect((await call('GET', '/affiliate/partner/commissions', partner.X.cookie)).json().data).toEqual([]);
    const summary = (await call('GET', '/affiliate/partner/summary', partner.C.cookie)).json();
    expect(summary).toMatchObject({ clients: 1, activeTraders: 1 });
    expect(dec(summary.commission[0].amount).toFixed(2)).toBe(expected[0]);
    expect(summary.byDay).toHaveLength(1);
    const csv = await call('GET', '/affiliate/partner/commissions?format=csv', partner.C.cookie);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body).toContain(`${dealId}`);
    const xlsx = await call('GET', '/affiliate/partner/commissions?format=xlsx', partner.C.cookie);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect(
      (await call('GET', '/affiliate/partner/commissions?dateStart=2026-02-30', partner.C.cookie)).statusCode,
    ).toBe(400);
    expect((await call('GET', '/affiliate/partner/summary', admin)).statusCode).toBe(403);
  });

  it('reports per partner for admins', async () => {
    const report = (await call('GET', '/admin/partners/report', admin)).json();
    const c = report.data.find((r: { partnerId: number }) => r.partnerId === partner.C.id);
    expect(c).toMatchObject({ clients: 1, activeTraders: 1, lots: '1.00000000' });
    const clients = (await call('GET', `/admin/partners/${partner.C.id}/clients`, admin)).json();
    expect(clients.data.map((x: { id: number; masked: boolean }) => [x.id, x.masked])).toEqual([[client.id, false]]);
    const earned = (await call('GET', `/admin/partners/${partner.B.id}/commissions`, admin)).json();
    expect(earned.data.map((x: { level: number }) => x.level)).toEqual([2]);
    expect((await call('GET', `/admin/partners/${client.id}/clients`, admin)).statusCode).toBe(404);
    expect((await call('GET', `/admin/partners/${partner.C.id}/clients`, manager)).statusCode).toBe(403);
    const csv = await call('GET', '/admin/partners/report?format=csv', admin);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body).toContain('Partner C');
    const bad = await call('GET', '/admin/partners/report?dateStart=2026-05-01&dateEnd=2026-04-01', admin);
    expect(bad.statusCode).toBe(400);
  });

  it("keeps each partner's daily roll-up equal to their commission rows, and the dashboard's figures theirs", async () => {
    const days = (await t.ctx.db.execute(
      sql`select partner_id, lots::text, entries from partner_commission_days order by partner_id`,
    )) as unknown as { rows: Array<{ partner_id: number; lots: string; entries: number }> };
    // One day each: C's own client's lot; B and A earn on it at levels 2 and 3, which is not their volume.
    expect(days.rows).toEqual(
      [
        { partner_id: partner.A.id, lots: '0', entries: 1 },
        { partner_id: partner.B.id, lots: '0', entries: 1 },
        { partner_id: partner.C.id, lots: '1.00000000', entries: 1 },
      ].sort((a, b) => a.partner_id - b.partner_id),
    );
    await rollUpMatchesDetail();
  });

  it('reverses every level when staff void the deal', async () => {
    const voided = await call('DELETE', `/admin/trades/${dealId}`, admin);
    expect(voided.statusCode, voided.body).toBe(200);
    for (const p of [partner.A, partner.B, partner.C])
      expect(dec((await walletOf(p.id)).balance).toFixed(2)).toBe('0.00');
    const rows = await t.ctx.db.select().from(partnerCommissions).where(eq(partnerCommissions.dealId, dealId));
    expect(rows.filter((r) => r.kind === 'reversal')).toHaveLength(3);
    // A void again, or the job again, changes nothing.
    expect(await accrueDeals(t.ctx, [dealId])).toBe(0);
    expect((await call('DELETE', `/admin/trades/${dealId}`, admin)).statusCode).not.toBe(200);
    // Taken off the roll-up on the void's day: nothing earned, no volume, still one active trader (the deal was made).
    await rollUpMatchesDetail();
    const summary = (await call('GET', '/affiliate/partner/summary', partner.C.cookie)).json();
    expect(summary).toMatchObject({ activeTraders: 1, lots: '0.00000000' });
    expect(summary.commission).toEqual([{ currency: 'USD', amount: '0.00000000' }]);
    await partnerWalletsConsistent();
    await consistent(client.walletId);
  });

  it('pays nothing on a deal held under the minimum time, nor on demo', async () => {
    const later = new Date(Date.now() + 1000).toISOString();
    const edited = await call('PUT', `/admin/partners/plans/${planId}`, admin, {
      ...PLAN,
      minHoldSeconds: 3600,
      effectiveFrom: later,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().plan.versions).toBe(2);
    await new Promise((r) => setTimeout(r, 1100));
    const pos = await kit.place(client.cookie, { type: 'buy', instrument: 'EUR_USD', amount: '100000' });
    expect((await kit.close(client.cookie, pos.id)).statusCode).toBe(200);
    await settle();
    expect(await t.ctx.db.select().from(partnerCommissions).where(eq(partnerCommissions.dealId, pos.id))).toEqual([]);
    // A plan in use is archived, not deleted.
    const del = await call('DELETE', `/admin/partners/plans/${planId}`, admin);
    expect(del.json().message).toContain('archived');
    expect((await call('GET', '/admin/partners/plans', admin)).json().data[0].archived).toBe(true);
  });
});
