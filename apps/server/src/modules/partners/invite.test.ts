import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq, sql } from 'drizzle-orm';
import { createTestApp, DEMO, lastMailLink, signIn, type TestApp } from '../../../test/helpers.ts';
import { mailOutbox, partnerLinks, users } from '../../db/schema.ts';

/** A partner invites a sub-partner: the account under them on their plan, and a mailed link that sets its password. */

let t: TestApp;
let admin: string;
let planId: number;

const call = (method: 'GET' | 'POST' | 'PUT', url: string, cookie: string, payload?: unknown) =>
  t.app.inject({ method, url: `/api${url}`, headers: { cookie }, ...(payload ? { payload: payload as object } : {}) });

async function affiliate(name: string): Promise<{ id: number; cookie: string }> {
  const [demo] = await t.ctx.db.select().from(users).where(eq(users.email, DEMO.affiliate));
  const email = `${name.toLowerCase()}-${Date.now()}@invites.test`;
  const [u] = await t.ctx.db
    .insert(users)
    .values({ fullName: `Partner ${name}`, email, passwordHash: demo.passwordHash, roleId: 4, isEmailVerified: true })
    .returning();
  return { id: u.id, cookie: await signIn(t.app, email) };
}

const usersNamed = async (email: string) =>
  t.ctx.db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`);

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, DEMO.admin);
  const plan = await call('POST', '/admin/partners/plans', admin, {
    name: 'Invites',
    currency: 'USD',
    perLot: { forex: '5', commodity: '1', index: '1', stock: '0', crypto: '1' },
    spreadShare: '0',
    commissionShare: '0',
    cpa: '0',
    cpaMinDeposit: '0',
    levels: ['100', '20'],
    countDemo: false,
    minHoldSeconds: 0,
  });
  expect(plan.statusCode).toBe(200);
  planId = plan.json().plan.id;
});
afterAll(() => t.close());

describe('sub-partner invitations', () => {
  it('puts the invitee under the partner on their plan, and mails a link that sets the password', async () => {
    const a = await affiliate('Inviter');
    expect((await call('PUT', `/admin/partners/${a.id}`, admin, { planId, parentId: null })).statusCode).toBe(200);
    const email = `sub-${Date.now()}@invites.test`;
    const res = await call('POST', '/affiliate/partner/subpartners', a.cookie, { fullName: 'Sam Sub', email });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(`Invitation sent to ${email}`);
    const [sub] = await usersNamed(email);
    expect(sub).toMatchObject({ roleId: 4, fullName: 'Sam Sub', isEmailVerified: false });
    const [link] = await t.ctx.db.select().from(partnerLinks).where(eq(partnerLinks.userId, sub.id));
    expect(link).toMatchObject({ parentId: a.id, planId });
    // The inviter's portal lists them at once.
    const subs = await call('GET', '/affiliate/partner/subpartners', a.cookie);
    expect(subs.json().data.map((s: { userId: number }) => s.userId)).toContain(sub.id);

    // Nobody knows the account's password: the mailed link sets it, then the invitee signs in.
    const token = await lastMailLink(t, email, '/reset-password');
    const [mail] = await t.ctx.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.to, email))
      .orderBy(desc(mailOutbox.id))
      .limit(1);
    expect(mail.subject).toContain('Partner Inviter invites you');
    const set = await t.app.inject({
      method: 'PUT',
      url: '/api/forgot-password',
      payload: { token, password: 'Invited123' },
    });
    expect(set.statusCode).toBe(200);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: 'Invited123' },
    });
    expect(login.statusCode).toBe(200);
  });

  it('refuses a partner not on a plan, a taken address and bad input, creating nothing', async () => {
    const loose = await affiliate('Loose');
    const email = `never-${Date.now()}@invites.test`;
    const refused = await call('POST', '/affiliate/partner/subpartners', loose.cookie, { fullName: 'No One', email });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/not on a commission plan/);
    expect(await usersNamed(email)).toHaveLength(0);

    const a = await affiliate('Second');
    await call('PUT', `/admin/partners/${a.id}`, admin, { planId, parentId: null });
    const taken = await call('POST', '/affiliate/partner/subpartners', a.cookie, {
      fullName: 'Copy',
      email: DEMO.client.toUpperCase(),
    });
    expect(taken.statusCode).toBeGreaterThanOrEqual(400);
    expect(taken.statusCode).toBeLessThan(500);
    expect(await usersNamed(DEMO.client)).toHaveLength(1);

    for (const body of [
      { fullName: '', email },
      { fullName: 'X', email: 'not-an-email' },
      { fullName: 'X'.repeat(500), email },
    ]) {
      const bad = await call('POST', '/affiliate/partner/subpartners', a.cookie, body);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBeTruthy();
    }
    expect(await usersNamed(email)).toHaveLength(0);
  });

  it('is for partners only', async () => {
    const body = { fullName: 'Nope', email: `nope-${Date.now()}@invites.test` };
    expect((await call('POST', '/affiliate/partner/subpartners', admin, body)).statusCode).toBe(403);
    const client = await signIn(t.app, DEMO.client);
    expect((await call('POST', '/affiliate/partner/subpartners', client, body)).statusCode).toBe(403);
    expect(await usersNamed(body.email)).toHaveLength(0);
  });
});
