import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import {
  createTestApp,
  DEMO,
  DEMO_PASSWORD,
  newVerifiedCustomer,
  signIn,
  type TestApp,
} from '../../../test/helpers.ts';
import { auditLogs, users } from '../../db/schema.ts';
import { ACCOUNT_FAILURES, IP_FAILURES } from './sign-in-limits.ts';
import { issueTokenRow } from './tokens.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const login = (email: string, password: string, remoteAddress: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress });

async function lockOut(email: string, ip: string) {
  for (let i = 0; i < ACCOUNT_FAILURES; i++) expect((await login(email, 'wrong-password', ip)).statusCode).toBe(401);
}

describe('failed sign-in limits', () => {
  it('locks the account after its failures, but not a colleague on the same office IP', async () => {
    const office = '198.51.100.7';
    const careless = await newVerifiedCustomer(t, 'careless');
    const colleague = await newVerifiedCustomer(t, 'colleague');
    await lockOut(careless.email, office);
    const locked = await login(careless.email, careless.password, office);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toBe(
      'Too many failed sign-ins for this account. Try again in 15 minutes, or reset your password.',
    );
    // Same address, another account: five failures of one user do not lock the office.
    expect((await login(colleague.email, colleague.password, office)).statusCode).toBe(200);
    // The locked account stays locked from any address.
    expect((await login(careless.email, careless.password, '203.0.113.9')).statusCode).toBe(429);
  });

  it('counts guesses sent all at once as they arrive, not after the first is answered', async () => {
    const target = await newVerifiedCustomer(t, 'parallel');
    const ip = '198.51.100.44';
    const guesses = Array.from({ length: 39 }, (_, i) => login(target.email, `wrong-guess-${i}`, ip));
    const answers = await Promise.all([...guesses, login(target.email, target.password, ip)]);
    const count = (status: number) => answers.filter((r) => r.statusCode === status).length;
    expect(count(401)).toBe(ACCOUNT_FAILURES);
    expect(count(429)).toBe(40 - ACCOUNT_FAILURES);
    expect(count(200)).toBe(0);
  });

  it('does not count an attempt refused before its password was checked, nor a right password', async () => {
    const person = await newVerifiedCustomer(t, 'steady');
    const ip = '198.51.100.45';
    for (let i = 0; i < 10; i++) expect((await login(person.email, person.password, ip)).statusCode).toBe(200);
    for (let i = 0; i < ACCOUNT_FAILURES - 1; i++)
      expect((await login(person.email, 'wrong-password', ip)).statusCode).toBe(401);
    // A right password starts the count again.
    expect((await login(person.email, person.password, ip)).statusCode).toBe(200);
    for (let i = 0; i < ACCOUNT_FAILURES - 1; i++)
      expect((await login(person.email, 'wrong-password', ip)).statusCode).toBe(401);
    expect((await login(person.email, person.password, ip)).statusCode).toBe(200);
  });

  it('locks an IP that sprays many accounts, at its own higher threshold', async () => {
    const sprayer = '192.0.2.66';
    for (let i = 0; i < IP_FAILURES; i++) {
      const res = await login(`nobody${i}@example.test`, 'wrong-password', sprayer);
      expect(res.statusCode, `attempt ${i + 1}`).toBe(401);
    }
    const res = await login(DEMO.affiliate, DEMO_PASSWORD, sprayer);
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toMatch(/^Too many failed sign-ins from your network\. Try again in \d+ minutes\.$/);
    // Everyone else is unaffected.
    expect((await login(DEMO.affiliate, DEMO_PASSWORD, '192.0.2.67')).statusCode).toBe(200);
  });

  it('lets an admin see and clear a lock, with an audit entry', async () => {
    const victim = await newVerifiedCustomer(t, 'locked');
    await lockOut(victim.email, '198.51.100.20');
    const admin = await signIn(t.app, DEMO.admin);
    const url = `/api/admin/users/${victim.id}/sign-in-lock`;
    expect((await t.app.inject({ method: 'GET', url, headers: { cookie: admin } })).json()).toEqual({
      locked: true,
      minutes: 15,
    });
    const manager = await signIn(t.app, DEMO.manager);
    expect((await t.app.inject({ method: 'DELETE', url, headers: { cookie: manager } })).statusCode).toBe(403);
    const cleared = await t.app.inject({ method: 'DELETE', url, headers: { cookie: admin } });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().message).toBe(`Sign-in unlocked for ${victim.email}`);
    expect((await t.app.inject({ method: 'GET', url, headers: { cookie: admin } })).json()).toEqual({
      locked: false,
      minutes: 0,
    });
    expect((await login(victim.email, victim.password, '198.51.100.20')).statusCode).toBe(200);
    const [entry] = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.targetUserId, victim.id))
      .orderBy(desc(auditLogs.id))
      .limit(1);
    expect(entry).toMatchObject({ action: 'user.sign_in_unlock', after: { was_locked: true } });
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: '/api/admin/users/999999/sign-in-lock',
          headers: { cookie: admin },
        })
      ).statusCode,
    ).toBe(404);
  });

  it('a password reset opens a locked account', async () => {
    const victim = await newVerifiedCustomer(t, 'forgetful');
    await lockOut(victim.email, '198.51.100.30');
    const [{ id }] = await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, victim.email));
    const { token } = await issueTokenRow(t.ctx.db, id, 'reset_password');
    const reset = await t.app.inject({
      method: 'PUT',
      url: '/api/forgot-password',
      payload: { token, password: 'BrandNew123!' },
    });
    expect(reset.statusCode).toBe(200);
    expect((await login(victim.email, 'BrandNew123!', '198.51.100.30')).statusCode).toBe(200);
  });
});
