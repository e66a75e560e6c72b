import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { createTestApp, cookieOf, signIn, DEMO, type TestApp } from '../../../test/helpers.ts';
import { auditLogs, leads, sessions, users } from '../../db/schema.ts';

let t: TestApp;
let clientId: number;
beforeAll(async () => {
  t = await createTestApp();
  clientId = await idOf(DEMO.client);
});
afterAll(async () => t.close());

async function idOf(email: string): Promise<number> {
  return (await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0].id;
}
const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } });
const loginAs = (id: number, cookie: string) =>
  t.app.inject({ method: 'POST', url: `/api/admin/customers/login-as/${id}`, headers: { cookie } });

describe('login as customer and back to admin', () => {
  it('swaps the staff session for an impersonating customer session and back again', async () => {
    const adminId = await idOf(DEMO.admin);
    const staff = await signIn(t.app, DEMO.admin);
    const res = await loginAs(clientId, staff);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Logged in as customer', redirect: '/' });
    expect(String(res.headers['set-cookie'])).toMatch(/HttpOnly/i);
    const asClient = cookieOf(res);
    expect(asClient).not.toBe(staff);

    // The staff session is gone; the new one is the customer's, flagged as impersonation.
    expect((await me(staff)).statusCode).toBe(401);
    const view = (await me(asClient)).json();
    expect(view.user.id).toBe(clientId);
    expect(view.impersonating).toBe(true);
    const [s] = await t.ctx.db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, clientId))
      .orderBy(desc(sessions.id))
      .limit(1);
    expect(s.impersonatorId).toBe(adminId);

    const [audit] = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.action, 'customer.login_as'))
      .orderBy(desc(auditLogs.id))
      .limit(1);
    expect(audit).toMatchObject({ actorId: adminId, targetUserId: clientId });

    const back = await t.app.inject({
      method: 'POST',
      url: '/api/authManager/back-to-admin',
      headers: { cookie: asClient },
    });
    expect(back.statusCode, back.body).toBe(200);
    const adminAgain = cookieOf(back);
    const mine = (await me(adminAgain)).json();
    expect(mine.user.id).toBe(adminId);
    expect(mine.impersonating).toBe(false);
    expect((await me(asClient)).statusCode).toBe(401);
    // A plain session cannot go "back": there is no admin behind it.
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/authManager/back-to-admin',
      headers: { cookie: adminAgain },
    });
    expect(again.statusCode).toBe(409);
  });

  it('is open to managers (for the customers in their care), not to retention agents nor other roles', async () => {
    await t.ctx.db.insert(leads).values({
      firstName: 'Chris',
      leadStatus: 'New',
      group: 'clients',
      linkedUserId: clientId,
      retId: await idOf(DEMO.retention),
    });
    const res = await loginAs(clientId, await signIn(t.app, DEMO.manager));
    expect(res.statusCode).toBe(200);
    // A retention agent reads this customer's contacts masked in the back office; the client area shows them whole.
    const retention = await signIn(t.app, DEMO.retention);
    expect(
      (
        await t.app.inject({ method: 'GET', url: `/api/admin/share/users/${clientId}`, headers: { cookie: retention } })
      ).json().email,
    ).toContain('****');
    for (const email of [DEMO.retention, DEMO.agent, DEMO.affiliate, DEMO.client]) {
      const cookie = await signIn(t.app, email);
      expect((await loginAs(clientId, cookie)).statusCode, email).toBe(403);
      expect((await me(cookie)).statusCode).toBe(200);
    }
    expect((await t.app.inject({ method: 'POST', url: `/api/admin/customers/login-as/${clientId}` })).statusCode).toBe(
      401,
    );
  });

  it('only works for an existing, active customer and keeps the staff session otherwise', async () => {
    const staff = await signIn(t.app, DEMO.admin);
    expect((await loginAs(await idOf(DEMO.manager), staff)).statusCode).toBe(404);
    expect((await loginAs(999999, staff)).statusCode).toBe(404);
    await t.ctx.db.update(users).set({ isActive: false }).where(eq(users.id, clientId));
    const inactive = await loginAs(clientId, staff);
    expect(inactive.statusCode).toBe(422);
    expect(inactive.json().message).toBe('This customer account is inactive.');
    await t.ctx.db.update(users).set({ isActive: true }).where(eq(users.id, clientId));
    expect((await me(staff)).statusCode).toBe(200);
  });
});
