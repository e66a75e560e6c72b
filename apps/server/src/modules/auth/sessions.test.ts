import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, DEMO, newVerifiedCustomer, signIn, type TestApp } from '../../../test/helpers.ts';
import { ipWhitelists, users } from '../../db/schema.ts';
import { destroyUserSessions, resolveSession } from './sessions.ts';

// Customers' sessions are kept in memory for a few seconds; these check that every way of ending access still
// takes effect on the very next request in this process.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } });
const tokenOf = (cookie: string) => cookie.slice('sid='.length);

const newCustomer = () => newVerifiedCustomer(t, 'session');

describe('ending a customer session that was just in use', () => {
  it('signs out at once', async () => {
    const { email } = await newCustomer();
    const cookie = await signIn(t.app, email, 'Password123!');
    expect((await me(cookie)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } })).statusCode).toBe(200);
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it('ends the previous session when the same browser signs in again', async () => {
    const { email } = await newCustomer();
    const first = await signIn(t.app, email, 'Password123!');
    expect((await me(first)).statusCode).toBe(200);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { cookie: first },
      payload: { email, password: 'Password123!' },
    });
    expect(again.statusCode).toBe(200);
    expect((await me(first)).statusCode).toBe(401);
  });

  it('ends every other session on a password change, and keeps the one that changed it', async () => {
    const { email } = await newCustomer();
    const laptop = await signIn(t.app, email, 'Password123!');
    const phone = await signIn(t.app, email, 'Password123!');
    expect((await me(laptop)).statusCode).toBe(200);
    expect((await me(phone)).statusCode).toBe(200);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/security/password',
      headers: { cookie: laptop },
      payload: { currentPassword: 'Password123!', newPassword: 'BrandNew123!' },
    });
    expect(res.statusCode).toBe(200);
    expect((await me(phone)).statusCode).toBe(401);
    expect((await me(laptop)).statusCode).toBe(200);
  });

  it('ends every session when the account is deactivated or deleted through destroyUserSessions', async () => {
    const { email, id } = await newCustomer();
    const cookie = await signIn(t.app, email, 'Password123!');
    expect((await me(cookie)).statusCode).toBe(200);
    await t.ctx.db.transaction(async (tx) => {
      await tx.update(users).set({ isActive: false }).where(eq(users.id, id));
      await destroyUserSessions(tx, id);
    });
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it('does not keep a session read while its ending is still being committed', async (test) => {
    // PGlite runs one transaction at a time, so a read cannot happen inside another's window there.
    if (t.ctx.dbKind !== 'postgres') test.skip();
    const { email, id } = await newCustomer();
    const cookie = await signIn(t.app, email, 'Password123!');
    expect((await me(cookie)).statusCode).toBe(200);
    await t.ctx.db.transaction(async (tx) => {
      await destroyUserSessions(tx, id);
      // Not committed yet: a request now still sees the session, as it would without any cache...
      expect(await resolveSession(t.ctx.db, tokenOf(cookie), '127.0.0.1')).not.toBeNull();
    });
    // ...but must not have put it back for the requests after the commit.
    expect(await resolveSession(t.ctx.db, tokenOf(cookie), '127.0.0.1')).toBeNull();
    expect((await me(cookie)).statusCode).toBe(401);
  });
});

describe('staff sessions', () => {
  it('apply a new IP whitelist on the very next request (they are never kept in memory)', async () => {
    const cookie = await signIn(t.app, DEMO.manager, undefined, '10.1.1.1');
    const call = () =>
      t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie }, remoteAddress: '10.1.1.1' });
    expect((await call()).statusCode).toBe(200);
    const [manager] = await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO.manager));
    await t.ctx.db.insert(ipWhitelists).values({ userId: manager.id, ipAddress: '10.9.9.9' });
    expect((await call()).statusCode).toBe(401);
    await t.ctx.db.delete(ipWhitelists).where(eq(ipWhitelists.userId, manager.id));
    expect((await call()).statusCode).toBe(200);
  });
});
