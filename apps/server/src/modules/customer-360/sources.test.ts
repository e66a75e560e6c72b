import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  createTestApp,
  DEMO,
  multipart,
  newVerifiedCustomer,
  PNG_BYTES,
  signIn,
  type TestApp,
} from '../../../test/helpers.ts';
import { balances, deposits, kycDocuments, leads, users } from '../../db/schema.ts';
import { recomputeFirstDeposits } from '../deposits/first-deposit.ts';
import { recomputeKycListStatuses } from '../kyc/list-status.ts';

/**
 * Where the lists' Customer 360 figures come from: each is kept on the customer's rows by the change that makes it
 * (the first deposit's approval, a KYC submission or review, a sign-in, the first real wallet opened), and the copies
 * the lists count by are kept by triggers (whether a wallet's owner is a live customer; a lead's copy of its
 * customer's KYC state and first deposit).
 */
let t: TestApp;
let admin: string;

const userRow = async (id: number) => (await t.ctx.db.select().from(users).where(eq(users.id, id)))[0];
const inject = (method: 'GET' | 'POST' | 'DELETE', url: string, cookie: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: { cookie }, payload: payload as Record<string, unknown> | undefined });

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, DEMO.admin);
});
afterAll(async () => t.close());

describe('Customer 360 sources', () => {
  it('records the first approved deposit once, in its approval', async () => {
    const c = await newVerifiedCustomer(t, 'ftd');
    // Deposits need KYC (the demo's site settings).
    await t.ctx.db.insert(kycDocuments).values({ userId: c.id, type: 'passport', status: 'approved' });
    const cookie = await signIn(t.app, c.email, c.password);
    const [wallet] = await t.ctx.db
      .select()
      .from(balances)
      .where(and(eq(balances.userId, c.id), eq(balances.main, true)));
    const deposit = async (amount: string) => {
      const res = await inject('POST', '/api/deposits', cookie, { balance_id: wallet.id, amount, gateway: 'bank' });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().id as number;
    };
    const approve = (id: number) =>
      inject('POST', `/api/admin/deposits/${id}/approve`, admin, { overrideReason: 'Seen on the bank statement' });
    const first = await deposit('150');
    const second = await deposit('999');
    expect((await userRow(c.id)).ftdAt).toBeNull();
    expect((await inject('POST', `/api/admin/deposits/${second}/decline`, admin, {})).statusCode).toBe(200);
    expect((await userRow(c.id)).ftdAt).toBeNull();
    expect((await approve(first)).statusCode).toBe(200);
    const after = await userRow(c.id);
    const [row] = await t.ctx.db.select().from(deposits).where(eq(deposits.id, first));
    expect(after).toMatchObject({ ftdAmount: '150.00000000', ftdCurrency: 'USD' });
    expect(after.ftdAt?.toISOString()).toBe(row.reviewedAt?.toISOString());
    // A later approval leaves the first deposit as it was.
    expect((await approve(await deposit('75'))).statusCode).toBe(200);
    expect(await userRow(c.id)).toMatchObject({ ftdAmount: '150.00000000', ftdAt: after.ftdAt });
    // Read again from the deposits table (the migration's backfill, data written straight into it): the same.
    await t.ctx.db.update(users).set({ ftdAt: null, ftdAmount: null, ftdCurrency: null }).where(eq(users.id, c.id));
    await recomputeFirstDeposits(t.ctx.db);
    expect(await userRow(c.id)).toMatchObject({ ftdAmount: '150.00000000', ftdAt: after.ftdAt, ftdCurrency: 'USD' });
  });

  it('follows the KYC state through submission, decline, resubmission and approval', async () => {
    const c = await newVerifiedCustomer(t, 'kyc360');
    const cookie = await signIn(t.app, c.email, c.password);
    const submit = () => {
      const form = multipart({ type: 'passport' }, { front: { data: PNG_BYTES } });
      return t.app.inject({
        method: 'POST',
        url: '/api/kyc',
        headers: { cookie, ...form.headers },
        payload: form.payload,
      });
    };
    const latest = async () =>
      (await t.ctx.db.select().from(kycDocuments).where(eq(kycDocuments.userId, c.id))).sort((a, b) => b.id - a.id)[0];
    expect((await userRow(c.id)).kycStatus).toBe('none');
    expect((await submit()).statusCode).toBe(200);
    expect((await userRow(c.id)).kycStatus).toBe('pending');
    const doc = await latest();
    expect(
      (await inject('POST', `/api/admin/kyc/${doc.id}/decline`, admin, { declineReason: 'Blurred' })).statusCode,
    ).toBe(200);
    expect((await userRow(c.id)).kycStatus).toBe('declined');
    expect((await submit()).statusCode).toBe(200);
    expect((await userRow(c.id)).kycStatus).toBe('pending');
    expect((await inject('POST', `/api/admin/kyc/${(await latest()).id}/approve`, admin)).statusCode).toBe(200);
    expect((await userRow(c.id)).kycStatus).toBe('approved');
    // Approved stays approved while any document is (what trading checks), even if an older one is declined again.
    expect((await inject('POST', `/api/admin/kyc/${doc.id}/decline`, admin, {})).statusCode).toBe(200);
    expect((await userRow(c.id)).kycStatus).toBe('approved');
    await t.ctx.db.update(users).set({ kycStatus: 'none' }).where(eq(users.id, c.id));
    await recomputeKycListStatuses(t.ctx.db);
    expect((await userRow(c.id)).kycStatus).toBe('approved');
  });

  it("stamps the customer's own sign-in as the last login, not staff's Login as", async () => {
    const c = await newVerifiedCustomer(t, 'login360');
    expect((await userRow(c.id)).lastLoginAt).toBeNull();
    await signIn(t.app, c.email, c.password);
    const own = (await userRow(c.id)).lastLoginAt;
    expect(own).toBeInstanceOf(Date);
    expect(Date.now() - own!.getTime()).toBeLessThan(60_000);
    await new Promise((r) => setTimeout(r, 20));
    expect((await inject('POST', `/api/admin/customers/login-as/${c.id}`, admin)).statusCode).toBe(200);
    expect((await userRow(c.id)).lastLoginAt).toEqual(own);
  });

  it("keeps on each wallet whether its owner is a live customer, which the customers list's count reads", async () => {
    const c = await newVerifiedCustomer(t, 'live360');
    // Signed in afresh: "Login as" above took over the admin's session.
    const staff = await signIn(t.app, DEMO.admin);
    const live = async () =>
      (await t.ctx.db.select().from(balances).where(eq(balances.userId, c.id)).orderBy(balances.id)).map(
        (w) => w.liveCustomer,
      );
    await t.ctx.db
      .update(balances)
      .set({ balance: '4321.09' })
      .where(and(eq(balances.userId, c.id), eq(balances.main, true)));
    const counted = async () =>
      (await inject('GET', '/api/admin/customers/api/all?balanceMin=4321.09&balanceMax=4321.09', staff)).json().meta
        .total as number;
    expect(await live()).toEqual([true, true]);
    expect(await counted()).toBe(1);
    // A wallet opened later takes its owner's state.
    await t.ctx.db.insert(balances).values({ userId: c.id, mode: 'real', currency: 'EUR', balance: '0' });
    expect(await live()).toEqual([true, true, true]);
    // Deleted: every wallet of theirs leaves the count at once.
    expect((await inject('DELETE', `/api/admin/customers/${c.id}`, staff)).statusCode).toBe(200);
    expect(await live()).toEqual([false, false, false]);
    expect(await counted()).toBe(0);
    // Undeleted, then made staff (written straight to the row): each change passes to the wallets.
    await t.ctx.db.update(users).set({ deletedAt: null }).where(eq(users.id, c.id));
    expect(await live()).toEqual([true, true, true]);
    expect(await counted()).toBe(1);
    await t.ctx.db.update(users).set({ roleId: 2 }).where(eq(users.id, c.id));
    expect(await live()).toEqual([false, false, false]);
    // A staff member's wallet is never a live customer's.
    const [adminRow] = await t.ctx.db.select().from(users).where(eq(users.email, DEMO.admin));
    const [w] = await t.ctx.db
      .insert(balances)
      .values({ userId: adminRow.id, mode: 'real', currency: 'USD', balance: '0' })
      .returning();
    expect(w.liveCustomer).toBe(false);
  });

  it("copies the customer's KYC state and first deposit onto their lead, whichever side changes", async () => {
    const c = await newVerifiedCustomer(t, 'leadcopy360');
    const staff = await signIn(t.app, DEMO.admin);
    const [l] = await t.ctx.db.insert(leads).values({ firstName: 'Copy360', leadStatus: 'New' }).returning();
    const copy = async (id = l.id) => {
      const [row] = await t.ctx.db.select().from(leads).where(eq(leads.id, id));
      return { kyc: row.customerKycStatus, ftd: row.customerFtdAt?.toISOString() ?? null };
    };
    expect(await copy()).toEqual({ kyc: null, ftd: null });
    await t.ctx.db.update(users).set({ kycStatus: 'pending' }).where(eq(users.id, c.id));
    // Linked: the lead takes the customer's figures.
    await t.ctx.db.update(leads).set({ linkedUserId: c.id, group: 'clients' }).where(eq(leads.id, l.id));
    expect(await copy()).toEqual({ kyc: 'pending', ftd: null });
    // The customer's changes follow to the lead.
    const ftd = new Date('2026-03-04T05:06:07Z');
    await t.ctx.db.update(users).set({ ftdAt: ftd, ftdAmount: '10', ftdCurrency: 'USD' }).where(eq(users.id, c.id));
    expect(await copy()).toEqual({ kyc: 'pending', ftd: ftd.toISOString() });
    await t.ctx.db.update(users).set({ kycStatus: 'approved' }).where(eq(users.id, c.id));
    expect(await copy()).toEqual({ kyc: 'approved', ftd: ftd.toISOString() });
    // Unlinked: no customer, no figures; a lead written already linked takes them at once.
    await t.ctx.db.update(leads).set({ linkedUserId: null }).where(eq(leads.id, l.id));
    expect(await copy()).toEqual({ kyc: null, ftd: null });
    const [linked] = await t.ctx.db
      .insert(leads)
      .values({ firstName: 'Copy360', leadStatus: 'New', group: 'clients', linkedUserId: c.id })
      .returning();
    expect(await copy(linked.id)).toEqual({ kyc: 'approved', ftd: ftd.toISOString() });
    // Through the list: the lead is found by the customer's KYC state, and leaves it when the state changes.
    const found = async (kyc: string) =>
      (
        (await inject('GET', `/api/affiliate/leads/api/clients/All?search=Copy360&kyc=${kyc}`, staff)).json()
          .data as Array<{ id: number }>
      ).map((r) => r.id);
    expect(await found('approved')).toEqual([linked.id]);
    await t.ctx.db.update(users).set({ kycStatus: 'declined' }).where(eq(users.id, c.id));
    expect(await found('approved')).toEqual([]);
    expect(await found('declined')).toEqual([linked.id]);
  });

  it('makes the first real wallet the main one, and no later one', async () => {
    const c = await newVerifiedCustomer(t, 'main360');
    const [eur] = await t.ctx.db
      .insert(balances)
      .values({ userId: c.id, mode: 'real', currency: 'EUR', balance: '0' })
      .returning();
    const wallets = await t.ctx.db.select().from(balances).where(eq(balances.userId, c.id)).orderBy(balances.id);
    expect(wallets.map((w) => [w.mode, w.currency, w.main])).toEqual([
      ['real', 'USD', true],
      ['demo', 'USD', false],
      ['real', 'EUR', false],
    ]);
    expect(eur.main).toBe(false);
    // A demo wallet can never be the main one.
    await expect(
      t.ctx.db.insert(balances).values({ userId: c.id, mode: 'demo', currency: 'USD', balance: '0', main: true }),
    ).rejects.toThrow();
  });
});
