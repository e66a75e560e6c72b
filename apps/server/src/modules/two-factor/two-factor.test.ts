import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import type { InjectOptions } from 'fastify';
import { createTestApp, cookieOf, signIn, DEMO, DEMO_PASSWORD, type TestApp } from '../../../test/helpers.ts';
import { auditLogs, authTokens, staffTwoFactor, users } from '../../db/schema.ts';

let t: TestApp;
let adminCookie: string;
beforeAll(async () => {
  t = await createTestApp();
  adminCookie = await signIn(t.app, DEMO.admin);
});
afterAll(async () => t.close());

/** The code of the time step `steps` away from now (the server accepts one step either side). */
const codeAt = (secret: string, steps = 0) =>
  OTPAuth.TOTP.generate({
    secret: OTPAuth.Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    timestamp: Date.now() + steps * 30_000,
  });

const post = (url: string, cookie: string | undefined, payload?: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: cookie ? { cookie } : {},
    ...(payload === undefined ? {} : { payload }),
  } as InjectOptions);
const get = (url: string, cookie: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
const login = (email: string, password = DEMO_PASSWORD) => post('/api/auth/login', undefined, { email, password });

let staffSeq = 0;
/** A new staff user of the role, created through the admin API. */
async function newStaff(roleId: number): Promise<{ id: number; email: string }> {
  const email = `staff2fa${++staffSeq}-${roleId}@example.test`;
  const res = await post('/api/admin/users', adminCookie, {
    fullName: 'Two Factor Staff',
    email,
    password: DEMO_PASSWORD,
    roleId,
    whitelist: '',
    isEmailVerified: true,
    isActive: true,
  });
  expect(res.statusCode).toBeLessThan(300);
  const [u] = await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return { id: u.id, email };
}

/** Turns two-factor sign-in on for a signed-in staff user; returns the secret and the recovery codes. */
async function enrol(cookie: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await post('/api/security/two-factor/setup', cookie);
  expect(setup.statusCode).toBe(200);
  const { secret } = setup.json();
  const res = await post('/api/security/two-factor/enable', cookie, { code: codeAt(secret) });
  expect(res.statusCode).toBe(200);
  return { secret, recoveryCodes: res.json().recoveryCodes };
}

/** Lets the next code of the current step be accepted again (tests sign in more often than every 30 seconds). */
const forgetLastStep = (userId: number) =>
  t.ctx.db.update(staffTwoFactor).set({ lastStep: null }).where(eq(staffTwoFactor.userId, userId));

const lastAudit = async (action: string) =>
  (await t.ctx.db.select().from(auditLogs).where(eq(auditLogs.action, action)).orderBy(desc(auditLogs.id)).limit(1))[0];

describe('staff two-factor sign-in', () => {
  it('sets up with a QR image and an otpauth link, enables with a code and returns 10 recovery codes once', async () => {
    const staff = await newStaff(2);
    const cookie = await signIn(t.app, staff.email);
    expect((await get('/api/security/two-factor', cookie)).json()).toEqual({
      enabled: false,
      required: false,
      recoveryCodesLeft: 0,
    });

    const setup = (await post('/api/security/two-factor/setup', cookie)).json();
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.otpauthUrl).toContain(`otpauth://totp/Trading%20Platform:${encodeURIComponent(staff.email)}?`);
    expect(setup.otpauthUrl).toContain(`secret=${setup.secret}`);
    expect(setup.otpauthUrl).toMatch(/algorithm=SHA1&digits=6&period=30/);
    expect(setup.qrDataUrl).toMatch(/^data:image\/png;base64,/);

    const wrong = await post('/api/security/two-factor/enable', cookie, { code: codeAt(setup.secret, 5) });
    expect(wrong.statusCode).toBe(422);
    const ok = await post('/api/security/two-factor/enable', cookie, { code: codeAt(setup.secret) });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().recoveryCodes).toHaveLength(10);
    expect(ok.json().recoveryCodes[0]).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
    expect((await get('/api/security/two-factor', cookie)).json()).toEqual({
      enabled: true,
      required: false,
      recoveryCodesLeft: 10,
    });
    expect((await post('/api/security/two-factor/setup', cookie)).statusCode).toBe(409);
    expect((await post('/api/security/two-factor/enable', cookie, { code: codeAt(setup.secret, 1) })).statusCode).toBe(
      409,
    );

    // Only hashes are kept.
    const [row] = await t.ctx.db.select().from(staffTwoFactor).where(eq(staffTwoFactor.userId, staff.id));
    expect(JSON.stringify(row.recoveryCodes)).not.toContain(ok.json().recoveryCodes[0]);
    expect(await lastAudit('staff.two_factor_enable')).toMatchObject({ actorId: staff.id, targetUserId: staff.id });
  });

  it('signs in with password then code: no session before the code, wrong codes refused, a code and a challenge work once', async () => {
    const staff = await newStaff(4);
    const { secret } = await enrol(await signIn(t.app, staff.email));

    const first = await login(staff.email);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ twoFactor: 'code' });
    expect(first.headers['set-cookie']).toBeUndefined();
    const { challenge } = first.json();

    const wrong = await post('/api/auth/login/two-factor', undefined, { challenge, code: codeAt(secret, 10) });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().message).toMatch(/code is not valid/);

    const ok = await post('/api/auth/login/two-factor', undefined, { challenge, code: codeAt(secret, 1) });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user).toMatchObject({ id: staff.id, role_id: 4 });
    const cookie = cookieOf(ok);
    expect((await get('/api/auth/user', cookie)).json().user.id).toBe(staff.id);

    // The challenge is used up.
    expect(
      (await post('/api/auth/login/two-factor', undefined, { challenge, code: codeAt(secret, 1) })).statusCode,
    ).toBe(422);
    // The same code (or an earlier step) with a new challenge is refused: a code is accepted once.
    const again = (await login(staff.email)).json().challenge;
    expect(
      (await post('/api/auth/login/two-factor', undefined, { challenge: again, code: codeAt(secret, 1) })).statusCode,
    ).toBe(422);
    expect(
      (await post('/api/auth/login/two-factor', undefined, { challenge: again, code: codeAt(secret, 0) })).statusCode,
    ).toBe(422);

    // An expired challenge is refused.
    await forgetLastStep(staff.id);
    const late = (await login(staff.email)).json().challenge;
    await t.ctx.db
      .update(authTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(authTokens.userId, staff.id), eq(authTokens.kind, 'two_factor')));
    const expired = await post('/api/auth/login/two-factor', undefined, { challenge: late, code: codeAt(secret) });
    expect(expired.statusCode).toBe(422);
    expect(expired.json().message).toMatch(/expired/);
    expect(
      (await post('/api/auth/login/two-factor', undefined, { challenge: 'not-a-challenge', code: '123456' }))
        .statusCode,
    ).toBe(422);
    await t.ctx.signInLimits.clearAccount(staff.email);
  });

  it('counts wrong codes as failed sign-ins of the account: the account locks and a right password does not clear it', async () => {
    const staff = await newStaff(5);
    const { secret } = await enrol(await signIn(t.app, staff.email));
    await forgetLastStep(staff.id);
    const { challenge } = (await login(staff.email)).json();
    for (let i = 0; i < 4; i++)
      expect(
        (await post('/api/auth/login/two-factor', undefined, { challenge, code: codeAt(secret, 20 + i) })).statusCode,
      ).toBe(422);
    // A right password in between keeps the count.
    const next = (await login(staff.email)).json().challenge;
    expect(
      (await post('/api/auth/login/two-factor', undefined, { challenge: next, code: codeAt(secret, 30) })).statusCode,
    ).toBe(422);
    const locked = await post('/api/auth/login/two-factor', undefined, { challenge: next, code: codeAt(secret) });
    expect(locked.statusCode).toBe(429);
    expect((await login(staff.email)).statusCode).toBe(429);
    await t.ctx.signInLimits.clearAccount(staff.email);
    const fresh = (await login(staff.email)).json().challenge;
    expect(
      (await post('/api/auth/login/two-factor', undefined, { challenge: fresh, code: codeAt(secret) })).statusCode,
    ).toBe(200);
  });

  it('accepts each recovery code once, and a new set replaces the old one', async () => {
    const staff = await newStaff(6);
    const cookie = await signIn(t.app, staff.email);
    const { secret, recoveryCodes } = await enrol(cookie);
    const c1 = (await login(staff.email)).json().challenge;
    const ok = await post('/api/auth/login/two-factor', undefined, {
      challenge: c1,
      recoveryCode: recoveryCodes[0].toUpperCase(),
    });
    expect(ok.statusCode).toBe(200);
    const c2 = (await login(staff.email)).json().challenge;
    expect(
      (await post('/api/auth/login/two-factor', undefined, { challenge: c2, recoveryCode: recoveryCodes[0] }))
        .statusCode,
    ).toBe(422);
    expect((await get('/api/security/two-factor', cookieOf(ok))).json().recoveryCodesLeft).toBe(9);

    const fresh = await post('/api/security/two-factor/recovery-codes', cookieOf(ok), { code: codeAt(secret, 1) });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json().recoveryCodes).toHaveLength(10);
    const c3 = (await login(staff.email)).json().challenge;
    expect(
      (await post('/api/auth/login/two-factor', undefined, { challenge: c3, recoveryCode: recoveryCodes[1] }))
        .statusCode,
    ).toBe(422);
    expect(
      (
        await post('/api/auth/login/two-factor', undefined, {
          challenge: c3,
          recoveryCode: fresh.json().recoveryCodes[1],
        })
      ).statusCode,
    ).toBe(200);
    await t.ctx.signInLimits.clearAccount(staff.email);
  });

  it('turns off with password and code when the role does not require it', async () => {
    const staff = await newStaff(2);
    const cookie = await signIn(t.app, staff.email);
    const { secret } = await enrol(cookie);
    expect(
      (await post('/api/security/two-factor/disable', cookie, { password: 'wrong-password', code: codeAt(secret, 1) }))
        .statusCode,
    ).toBe(422);
    expect(
      (await post('/api/security/two-factor/disable', cookie, { password: DEMO_PASSWORD, code: codeAt(secret, 9) }))
        .statusCode,
    ).toBe(422);
    expect(
      (await post('/api/security/two-factor/disable', cookie, { password: DEMO_PASSWORD, code: codeAt(secret, 1) }))
        .statusCode,
    ).toBe(200);
    expect((await get('/api/security/two-factor', cookie)).json().enabled).toBe(false);
    expect((await login(staff.email)).json().user.id).toBe(staff.id);
    expect(await lastAudit('staff.two_factor_disable')).toMatchObject({ actorId: staff.id });
    await t.ctx.signInLimits.clearAccount(staff.email);
  });

  it('policy: admin only, audited; requiring a role signs out its un-enrolled users, who enrol at their next sign-in', async () => {
    const managerCookie = await signIn(t.app, DEMO.manager);
    expect((await get('/api/admin/security/two-factor-policy', managerCookie)).statusCode).toBe(403);
    expect((await get('/api/admin/security/two-factor-policy', adminCookie)).json()).toEqual({ roles: [] });

    const enrolled = await newStaff(5);
    const enrolledCookie = await signIn(t.app, enrolled.email);
    const { secret: enrolledSecret } = await enrol(enrolledCookie);
    const bare = await newStaff(5);
    const bareCookie = await signIn(t.app, bare.email);

    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/security/two-factor-policy',
      headers: { cookie: adminCookie },
      payload: { roles: [5, 5] },
    });
    expect(saved.json()).toEqual({ roles: [5] });
    expect(await lastAudit('settings.two_factor_policy')).toMatchObject({
      before: { roles: [] },
      after: { roles: [5] },
    });
    expect((await get('/api/auth/user', bareCookie)).statusCode).toBe(401);
    expect((await get('/api/auth/user', enrolledCookie)).statusCode).toBe(200);
    expect((await get('/api/auth/user', adminCookie)).statusCode).toBe(200);

    // Required: cannot be turned off.
    const refused = await post('/api/security/two-factor/disable', enrolledCookie, {
      password: DEMO_PASSWORD,
      code: codeAt(enrolledSecret, 1),
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/required for your role/);
    expect((await get('/api/security/two-factor', enrolledCookie)).json()).toMatchObject({
      enabled: true,
      required: true,
    });

    // Enrolment during sign-in.
    const first = (await login(bare.email)).json();
    expect(first).toMatchObject({ twoFactor: 'enrol' });
    expect(
      (await post('/api/auth/login/two-factor', undefined, { challenge: first.challenge, code: '123456' })).statusCode,
    ).toBe(409);
    const setup = await post('/api/auth/login/two-factor/setup', undefined, { challenge: first.challenge });
    expect(setup.statusCode).toBe(200);
    expect(setup.json().qrDataUrl).toMatch(/^data:image\/png/);
    const done = await post('/api/auth/login/two-factor', undefined, {
      challenge: first.challenge,
      code: codeAt(setup.json().secret),
      remember: true,
    });
    expect(done.statusCode).toBe(200);
    expect(done.json().recoveryCodes).toHaveLength(10);
    expect((await get('/api/security/two-factor', cookieOf(done))).json()).toMatchObject({
      enabled: true,
      required: true,
    });
    // Once enrolled, the set-up step is closed.
    const later = (await login(bare.email)).json();
    expect(later.twoFactor).toBe('code');
    expect((await post('/api/auth/login/two-factor/setup', undefined, { challenge: later.challenge })).statusCode).toBe(
      409,
    );

    // Admins may only be required by an admin who uses it.
    const admins = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/security/two-factor-policy',
      headers: { cookie: adminCookie },
      payload: { roles: [1, 5] },
    });
    expect(admins.statusCode).toBe(409);
    expect(admins.json().message).toMatch(/your own account/);

    // Bad input.
    for (const payload of [{ roles: [3] }, { roles: ['x'] }, { roles: 5 }, {}, { roles: [9] }]) {
      const bad = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/security/two-factor-policy',
        headers: { cookie: adminCookie },
        payload,
      });
      expect(bad.statusCode).toBe(400);
    }
    const off = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/security/two-factor-policy',
      headers: { cookie: adminCookie },
      payload: { roles: [] },
    });
    expect(off.json()).toEqual({ roles: [] });
  });

  it('an admin resets a staff user (lost phone): sessions end and the user signs in with the password alone', async () => {
    const staff = await newStaff(2);
    const cookie = await signIn(t.app, staff.email);
    await enrol(cookie);
    const managerCookie = await signIn(t.app, DEMO.manager);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/api/admin/users/${staff.id}/two-factor`,
          headers: { cookie: managerCookie },
        })
      ).statusCode,
    ).toBe(403);

    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/users/${staff.id}/two-factor`,
      headers: { cookie: adminCookie },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toContain(staff.email);
    expect((await get('/api/auth/user', cookie)).statusCode).toBe(401);
    expect(await lastAudit('staff.two_factor_reset')).toMatchObject({
      actorId: expect.any(Number),
      targetUserId: staff.id,
      before: { enabled: true },
    });
    expect((await login(staff.email)).json().user.id).toBe(staff.id);

    // A customer's too (their Security tab), audited as a customer's.
    const [client] = await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO.client));
    const customerReset = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/users/${client.id}/two-factor`,
      headers: { cookie: adminCookie },
    });
    expect(customerReset.statusCode).toBe(200);
    expect(customerReset.json().message).toBe(`Two-factor sign-in was reset for ${DEMO.client}`);
    expect(await lastAudit('customer.two_factor_reset')).toMatchObject({ targetUserId: client.id });
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: '/api/admin/users/999999/two-factor',
          headers: { cookie: adminCookie },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: '/api/admin/users/abc/two-factor',
          headers: { cookie: adminCookie },
        })
      ).statusCode,
    ).toBe(400);
  });

  it('refuses bad input; customers reach their own two-factor but never the policy', async () => {
    const client = await signIn(t.app, DEMO.client);
    expect((await get('/api/security/two-factor', client)).json()).toEqual({
      enabled: false,
      required: false,
      recoveryCodesLeft: 0,
    });
    expect((await get('/api/admin/security/two-factor-policy', client)).statusCode).toBe(403);
    // A customer's sign-in without two-factor on has no second step.
    expect((await login(DEMO.client)).json().user.role_id).toBe(3);

    const staff = await signIn(t.app, DEMO.affiliate);
    for (const code of ['12345', 'abcdef', '1234567', 123456, ''])
      expect((await post('/api/security/two-factor/enable', staff, { code })).statusCode).toBe(400);
    expect((await post('/api/security/two-factor/enable', staff, { code: '123456' })).statusCode).toBe(409);
    expect((await post('/api/security/two-factor/disable', staff, { password: DEMO_PASSWORD })).statusCode).toBe(400);
    expect((await post('/api/security/two-factor/recovery-codes', staff, { code: '123456' })).statusCode).toBe(409);
    for (const payload of [
      {},
      { challenge: 'x' },
      { challenge: 'x', code: '123456', recoveryCode: 'abcde-fghjk' },
      { challenge: 'x', recoveryCode: '!!' },
      { challenge: '', code: '123456' },
    ])
      expect((await post('/api/auth/login/two-factor', undefined, payload)).statusCode).toBe(400);
    expect((await post('/api/auth/login/two-factor/setup', undefined, {})).statusCode).toBe(400);
    expect((await post('/api/auth/login/two-factor/setup', undefined, { challenge: 'unknown' })).statusCode).toBe(422);
  });

  it('lets an admin who uses it require it for admins; the demo sign-ins stay one step by default', async () => {
    expect((await login(DEMO.manager)).json().user).toBeDefined();
    const { secret } = await enrol(adminCookie);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/security/two-factor-policy',
      headers: { cookie: adminCookie },
      payload: { roles: [1] },
    });
    expect(res.statusCode).toBe(200);
    expect((await get('/api/auth/user', adminCookie)).statusCode).toBe(200);
    expect((await login(DEMO.admin)).json().twoFactor).toBe('code');
    expect(
      (
        await post('/api/security/two-factor/disable', adminCookie, {
          password: DEMO_PASSWORD,
          code: codeAt(secret, 1),
        })
      ).statusCode,
    ).toBe(403);
  });
});
