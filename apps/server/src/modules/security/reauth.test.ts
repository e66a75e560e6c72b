import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { cookieOf, createTestApp, DEMO, newVerifiedCustomer, signIn, type TestApp } from '../../../test/helpers.ts';
import { auditLogs, sessions, staffTwoFactor, users } from '../../db/schema.ts';
import { ACCOUNT_FAILURES } from '../auth/sign-in-limits.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(() => {
  ip = `10.27.0.${++ipSeq}`;
});

const REAUTH = { reauth: true, message: 'Please enter your password again to continue.' };

/** Each test calls from its own address, so the per-address limit of confirmations (10 a minute) stays out of the way. */
let ip = '127.0.0.1';
let ipSeq = 10;
const call = (method: 'GET' | 'POST' | 'PUT', url: string, cookie: string | undefined, payload?: object) =>
  t.app.inject({
    method,
    url: `/api${url}`,
    remoteAddress: ip,
    headers: cookie ? { cookie } : {},
    ...(payload ? { payload } : {}),
  });

/** The code of the time step `steps` away from now (the server accepts one step either side). */
const codeAt = (secret: string, steps = 0) =>
  OTPAuth.TOTP.generate({
    secret: OTPAuth.Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    timestamp: Date.now() + steps * 30_000,
  });

/** The user's sessions signed in 20 minutes ago and never confirmed since. */
const age = (userId: number) =>
  t.ctx.db
    .update(sessions)
    .set({ createdAt: sql`now() - interval '20 minutes'`, confirmedAt: null })
    .where(eq(sessions.userId, userId));

const twoFactorRow = async (userId: number) =>
  (await t.ctx.db.select().from(staffTwoFactor).where(eq(staffTwoFactor.userId, userId)))[0];

/** Lets a code of an already used step be accepted again (tests move faster than 30 seconds). */
const forgetLastStep = (userId: number) =>
  t.ctx.db.update(staffTwoFactor).set({ lastStep: null }).where(eq(staffTwoFactor.userId, userId));

describe('re-authentication of sensitive client changes', () => {
  it('holds a password change from a 20-minute-old session until the password is confirmed', async () => {
    const c = await newVerifiedCustomer(t, 'reauth-pw');
    const cookie = await signIn(t.app, c.email, c.password);
    const [before] = await t.ctx.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, c.id));
    await age(c.id);
    const body = { currentPassword: c.password, newPassword: 'NewPassword456!' };
    const refused = await call('PUT', '/security/password', cookie, body);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual(REAUTH);
    const [after] = await t.ctx.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, c.id));
    expect(after.hash).toBe(before.hash);
    expect((await call('GET', '/auth/user', cookie)).statusCode).toBe(200);

    expect((await call('POST', '/auth/confirm', cookie, { password: c.password })).statusCode).toBe(200);
    const done = await call('PUT', '/security/password', cookie, body);
    expect(done.statusCode, done.body).toBe(200);
    expect(
      (await call('POST', '/auth/login', undefined, { email: c.email, password: 'NewPassword456!' })).statusCode,
    ).toBe(200);
  });

  it('counts wrong confirmations as failed sign-ins: the account locks after five, and a right one clears them', async () => {
    const c = await newVerifiedCustomer(t, 'reauth-limit');
    const cookie = await signIn(t.app, c.email, c.password);
    await age(c.id);
    const wrong = await call('POST', '/auth/confirm', cookie, { password: 'not-it' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors.password).toBe('The password is not right.');
    // A right one clears the count.
    expect((await call('POST', '/auth/confirm', cookie, { password: c.password })).statusCode).toBe(200);
    await age(c.id);
    for (let i = 0; i < ACCOUNT_FAILURES; i++)
      expect((await call('POST', '/auth/confirm', cookie, { password: `wrong-${i}` })).statusCode).toBe(400);
    const locked = await call('POST', '/auth/confirm', cookie, { password: c.password });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toMatch(/Too many failed sign-ins for this account/);
    // Sign-in itself is locked too, and the session stays unconfirmed.
    expect((await call('POST', '/auth/login', undefined, { email: c.email, password: c.password })).statusCode).toBe(
      429,
    );
    expect(
      (await call('PUT', '/security/password', cookie, { currentPassword: c.password, newPassword: 'Other4567!' }))
        .statusCode,
    ).toBe(401);
    // A code from a user without two-factor is refused the same way.
    await t.ctx.signInLimits.clearAccount(c.email);
    const code = await call('POST', '/auth/confirm', cookie, { code: '123456' });
    expect(code.statusCode).toBe(400);
    expect(code.json().errors.code).toBe('The code is not right. Try the current one.');
    await t.ctx.signInLimits.clearAccount(c.email);
  });
});

describe('client two-factor sign-in', () => {
  it('sets up with a QR image, turns on with a code, then asks sign-in for the code; turning it off needs a recent confirmation', async () => {
    const c = await newVerifiedCustomer(t, 'client2fa');
    const cookie = await signIn(t.app, c.email, c.password);

    // Set-up from a stale session waits for the password; nothing is stored.
    await age(c.id);
    expect((await call('POST', '/security/two-factor/setup', cookie)).json()).toEqual(REAUTH);
    expect(await twoFactorRow(c.id)).toBeUndefined();
    expect((await call('POST', '/auth/confirm', cookie, { password: c.password })).statusCode).toBe(200);

    const setup = await call('POST', '/security/two-factor/setup', cookie);
    expect(setup.statusCode).toBe(200);
    const { secret, otpauthUrl, qrDataUrl } = setup.json();
    expect(otpauthUrl).toContain(encodeURIComponent(c.email));
    expect(qrDataUrl).toMatch(/^data:image\/png;base64,/);

    // Turning it on from a stale session is held too, and the pending set-up stays off.
    await age(c.id);
    expect((await call('POST', '/security/two-factor/enable', cookie, { code: codeAt(secret) })).json()).toEqual(
      REAUTH,
    );
    expect((await twoFactorRow(c.id)).enabledAt).toBeNull();
    expect((await call('POST', '/auth/confirm', cookie, { password: c.password })).statusCode).toBe(200);
    expect((await call('POST', '/security/two-factor/enable', cookie, { code: '000000' })).statusCode).toBe(422);
    const on = await call('POST', '/security/two-factor/enable', cookie, { code: codeAt(secret) });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().recoveryCodes).toHaveLength(10);
    expect((await call('GET', '/security/two-factor', cookie)).json()).toEqual({
      enabled: true,
      required: false,
      recoveryCodesLeft: 10,
    });
    const [audit] = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'account.two_factor_enable'), eq(auditLogs.actorId, c.id)))
      .orderBy(desc(auditLogs.id));
    expect(audit).toMatchObject({ targetUserId: c.id });

    // Sign-in now asks for the code, and opens the session only with it.
    const first = await call('POST', '/auth/login', undefined, { email: c.email, password: c.password });
    expect(first.json()).toMatchObject({ twoFactor: 'code' });
    expect(first.headers['set-cookie']).toBeUndefined();
    const challenge = first.json().challenge;
    const wrong = await call('POST', '/auth/login/two-factor', undefined, { challenge, code: '000000' });
    expect(wrong.statusCode).toBe(422);
    const second = await call('POST', '/auth/login/two-factor', undefined, { challenge, code: codeAt(secret, 1) });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().user.role_id).toBe(3);
    const fresh = cookieOf(second);
    const history = (await call('GET', '/security/sign-ins', fresh)).json().data;
    expect(history.slice(0, 2).map((h: { result: string }) => h.result)).toEqual(['success', 'wrong_code']);
    await t.ctx.signInLimits.clearAccount(c.email);

    // A stale session confirms with the code instead of the password.
    await forgetLastStep(c.id);
    await age(c.id);
    const body = { password: c.password, code: codeAt(secret) };
    expect((await call('POST', '/security/two-factor/disable', fresh, body)).json()).toEqual(REAUTH);
    expect((await twoFactorRow(c.id)).enabledAt).not.toBeNull();
    expect((await call('POST', '/security/two-factor/recovery-codes', fresh, { code: codeAt(secret) })).json()).toEqual(
      REAUTH,
    );
    expect((await call('POST', '/auth/confirm', fresh, { code: '000000' })).statusCode).toBe(400);
    expect((await call('POST', '/auth/confirm', fresh, { code: codeAt(secret) })).statusCode).toBe(200);
    await forgetLastStep(c.id);
    const off = await call('POST', '/security/two-factor/disable', fresh, body);
    expect(off.statusCode, off.body).toBe(200);
    expect(await twoFactorRow(c.id)).toBeUndefined();
    expect(
      (await call('POST', '/auth/login', undefined, { email: c.email, password: c.password })).json().user.id,
    ).toBe(c.id);
    await t.ctx.signInLimits.clearAccount(c.email);
  });

  it('an admin resets a customer who lost their phone: signed out, then in with the password alone', async () => {
    const c = await newVerifiedCustomer(t, 'client2fa-lost');
    const cookie = await signIn(t.app, c.email, c.password);
    const { secret } = (await call('POST', '/security/two-factor/setup', cookie)).json();
    expect((await call('POST', '/security/two-factor/enable', cookie, { code: codeAt(secret) })).statusCode).toBe(200);
    expect(
      (await call('POST', '/auth/login', undefined, { email: c.email, password: c.password })).json(),
    ).toMatchObject({ twoFactor: 'code' });
    const admin = await signIn(t.app, DEMO.admin);
    const manager = await signIn(t.app, DEMO.manager);
    const reset = (who: string) =>
      t.app.inject({
        method: 'DELETE',
        url: `/api/admin/users/${c.id}/two-factor`,
        remoteAddress: ip,
        headers: { cookie: who },
      });
    expect((await reset(manager)).statusCode).toBe(403);
    expect(await twoFactorRow(c.id)).toBeDefined();
    const done = await reset(admin);
    expect(done.statusCode).toBe(200);
    expect(done.json().message).toBe(`Two-factor sign-in was reset for ${c.email}`);
    expect(await twoFactorRow(c.id)).toBeUndefined();
    expect((await call('GET', '/auth/user', cookie)).statusCode).toBe(401);
    const back = await call('POST', '/auth/login', undefined, { email: c.email, password: c.password });
    expect(back.json().user.id).toBe(c.id);
  });

  it('refuses two-factor changes to staff signed in as the customer', async () => {
    const c = await newVerifiedCustomer(t, 'client2fa-login-as');
    const admin = await signIn(t.app, DEMO.admin);
    const res = await call('POST', `/admin/customers/login-as/${c.id}`, admin);
    expect(res.statusCode, res.body).toBe(200);
    const asCustomer = cookieOf(res);
    for (const [url, payload] of [
      ['/security/two-factor/setup', undefined],
      ['/security/two-factor/enable', { code: '123456' }],
      ['/security/two-factor/disable', { password: 'x', code: '123456' }],
      ['/security/two-factor/recovery-codes', { code: '123456' }],
    ] as const)
      expect((await call('POST', url, asCustomer, payload)).statusCode, url).toBe(403);
    expect(await twoFactorRow(c.id)).toBeUndefined();
  });

  it('keeps a customer out of the staff policy and of other users’ two-factor', async () => {
    const c = await newVerifiedCustomer(t, 'client2fa-scope');
    const cookie = await signIn(t.app, c.email, c.password);
    expect((await call('PUT', '/admin/security/two-factor-policy', cookie, { roles: [3] })).statusCode).toBe(403);
    expect((await call('POST', '/security/two-factor/enable', cookie, { code: '123456' })).statusCode).toBe(409);
    expect((await call('POST', '/security/two-factor/enable', cookie, { code: 'abc' })).statusCode).toBe(400);
    expect((await call('POST', '/security/two-factor/disable', cookie, { password: 'x' })).statusCode).toBe(400);
    expect((await call('POST', '/auth/confirm', cookie, { password: '' })).statusCode).toBe(400);
  });
});
