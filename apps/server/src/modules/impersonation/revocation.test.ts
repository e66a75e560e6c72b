import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, cookieOf, signIn, DEMO, type TestApp } from '../../../test/helpers.ts';
import { userProfiles, users } from '../../db/schema.ts';
import { issueTokenRow } from '../auth/tokens.ts';
import { putSetting } from '../settings/service.ts';
import { POLICY_KEY } from '../two-factor/service.ts';

/**
 * A "Login as" session belongs to the customer (user_id) and names the staff member as impersonator: whatever ends
 * the staff member's own sessions must end it too, and going back to the back office must pass what a sign-in passes.
 */
let t: TestApp;
let admin: string;
let clientId: number;
let seq = 0;
const PASSWORD = 'Staff-password-1';

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, DEMO.admin);
  [{ id: clientId }] = await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO.client));
});
afterAll(async () => t.close());
// No test leaves two-factor sign-in required for a role, whatever it asserted.
afterEach(async () => putSetting(t.ctx.db, POLICY_KEY, { value1: '' }));

const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } });
const backToAdmin = (cookie: string) =>
  t.app.inject({ method: 'POST', url: '/api/authManager/back-to-admin', headers: { cookie } });

/** A new active staff member of the role, signed in twice; the demo client is put in a manager's care. */
async function staff(roleId: 1 | 2) {
  const email = `staff-revoke-${++seq}@example.test`;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/admin/users',
    headers: { cookie: admin },
    payload: { fullName: `Staff ${seq}`, email, password: PASSWORD, roleId, isEmailVerified: true, isActive: true },
  });
  expect(res.statusCode, res.body).toBe(201);
  const id: number = res.json().user.id;
  if (roleId === 2) await t.ctx.db.update(userProfiles).set({ managerId: id }).where(eq(userProfiles.userId, clientId));
  const first = await signIn(t.app, email, PASSWORD);
  const second = await signIn(t.app, email, PASSWORD);
  const login = await t.app.inject({
    method: 'POST',
    url: `/api/admin/customers/login-as/${clientId}`,
    headers: { cookie: first },
  });
  expect(login.statusCode, login.body).toBe(200);
  const impersonating = cookieOf(login);
  expect((await me(impersonating)).json().impersonating).toBe(true);
  return { id, email, other: second, impersonating };
}

async function expectEnded(impersonating: string) {
  expect((await me(impersonating)).statusCode).toBe(401);
  const back = await backToAdmin(impersonating);
  expect(back.statusCode).toBe(401);
  expect(String(back.headers['set-cookie'] ?? '')).not.toMatch(/sid=[^;]{10,}/);
}

describe('"Login as" sessions end with the staff member\'s sessions', () => {
  it('when the staff member changes their password in another session', async () => {
    const s = await staff(2);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/security/password',
      headers: { cookie: s.other },
      payload: { currentPassword: PASSWORD, newPassword: 'Another-password-2' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await me(s.other)).statusCode).toBe(200);
    await expectEnded(s.impersonating);
  });

  it('when the staff member resets their password by the mailed link', async () => {
    const s = await staff(1);
    const { token } = await issueTokenRow(t.ctx.db, s.id, 'reset_password');
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/forgot-password',
      payload: { token, password: 'Reset-password-3' },
    });
    expect(res.statusCode, res.body).toBe(200);
    await expectEnded(s.impersonating);
  });

  it('when an admin deactivates, deletes or resets the two-factor sign-in of the staff member', async () => {
    const deactivated = await staff(1);
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/users/${deactivated.id}`,
      headers: { cookie: admin },
      payload: {
        fullName: 'Deactivated',
        email: deactivated.email,
        roleId: 1,
        isEmailVerified: true,
        isActive: false,
      },
    });
    expect(put.statusCode, put.body).toBe(200);
    await expectEnded(deactivated.impersonating);

    const deleted = await staff(1);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/users/${deleted.id}`,
      headers: { cookie: admin },
    });
    expect(del.statusCode, del.body).toBe(200);
    await expectEnded(deleted.impersonating);

    const reset = await staff(2);
    const off = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/users/${reset.id}/two-factor`,
      headers: { cookie: admin },
    });
    expect(off.statusCode, off.body).toBe(200);
    await expectEnded(reset.impersonating);
  });

  it('when two-factor sign-in becomes mandatory for a role the staff member has not enrolled in', async () => {
    const s = await staff(2);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/security/two-factor-policy',
      headers: { cookie: admin },
      payload: { roles: [2] },
    });
    expect(res.statusCode, res.body).toBe(200);
    await expectEnded(s.impersonating);
  });
});

describe('back-to-admin meets what a fresh staff sign-in meets', () => {
  it('is refused to a staff member whose role now requires two-factor sign-in they never set up', async () => {
    const s = await staff(2);
    // The policy written without the sign-outs that saving it through the API does: only back-to-admin stands guard.
    await putSetting(t.ctx.db, POLICY_KEY, { value1: '2' });
    const back = await backToAdmin(s.impersonating);
    expect(back.statusCode, back.body).toBe(401);
    expect(back.json().message).toMatch(/two-factor/);
    expect((await me(s.impersonating)).statusCode).toBe(401);
  });

  it('is refused to an inactive or unverified staff member, and works for one in good standing', async () => {
    const inactive = await staff(1);
    await t.ctx.db.update(users).set({ isActive: false }).where(eq(users.id, inactive.id));
    expect((await backToAdmin(inactive.impersonating)).statusCode).toBe(403);

    const unverified = await staff(1);
    await t.ctx.db.update(users).set({ isEmailVerified: false }).where(eq(users.id, unverified.id));
    expect((await backToAdmin(unverified.impersonating)).statusCode).toBe(403);
    expect((await me(unverified.impersonating)).statusCode).toBe(401);

    const fine = await staff(2);
    const back = await backToAdmin(fine.impersonating);
    expect(back.statusCode, back.body).toBe(200);
    expect((await me(cookieOf(back))).json().user.id).toBe(fine.id);
  });
});
