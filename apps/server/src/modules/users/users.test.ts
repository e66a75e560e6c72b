import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { createTestApp, signIn, DEMO, type TestApp } from '../../../test/helpers.ts';
import { auditLogs, sessions, users } from '../../db/schema.ts';

let t: TestApp;
let admin: string;
let adminId: number;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, DEMO.admin);
  adminId = await idOf(DEMO.admin);
});
afterAll(async () => t.close());

async function idOf(email: string): Promise<number> {
  const [u] = await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return u.id;
}

const body = (over: Record<string, unknown> = {}) => ({
  fullName: 'Olga Ops',
  email: 'olga@example.com',
  password: 'Olga12345!',
  roleId: 2,
  whitelist: '',
  isEmailVerified: true,
  isActive: true,
  ...over,
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, cookie = admin) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

async function create(over: Record<string, unknown>): Promise<number> {
  const res = await call('POST', '/api/admin/users', body(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().user.id as number;
}

const lastAudit = async (targetUserId: number) =>
  (
    await t.ctx.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.targetUserId, targetUserId))
      .orderBy(desc(auditLogs.id))
      .limit(1)
  )[0];

describe('Admin & Staffs API', () => {
  it('lists staff only (no customers), newest first, paged and searchable by name or email', async () => {
    const res = await call('GET', '/api/admin/users/api');
    expect(res.statusCode).toBe(200);
    const { data, meta } = res.json();
    expect(meta).toEqual({ total: 5, per_page: 15, page: 1 });
    expect(data.map((u: { role_id: number }) => u.role_id)).not.toContain(3);
    const ids = data.map((u: { id: number }) => u.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(data[0]).toMatchObject({ whitelists: [], is_active: true, online: expect.any(Boolean) });
    expect(new Date(data[0].created_at).toISOString()).toBe(data[0].created_at);

    const page2 = (await call('GET', '/api/admin/users/api?page=2&limit=2')).json();
    expect(page2.meta).toEqual({ total: 5, per_page: 2, page: 2 });
    expect(page2.data).toHaveLength(2);
    expect(
      (await call('GET', '/api/admin/users/api?search=RITA')).json().data.map((u: { email: string }) => u.email),
    ).toEqual([DEMO.retention]);
    expect((await call('GET', '/api/admin/users/api?search=manager@')).json().meta.total).toBe(1);
    expect((await call('GET', '/api/admin/users/api?search=%25')).json().meta.total).toBe(0);
    expect((await call('GET', '/api/admin/users/api?limit=101')).statusCode).toBe(400);
  });

  it('shows online for users seen within 5 minutes', async () => {
    const agentId = await idOf(DEMO.agent);
    await t.ctx.db.update(users).set({ lastSeenAt: new Date() }).where(eq(users.id, agentId));
    expect((await call('GET', `/api/admin/users/${agentId}`)).json().online).toBe(true);
    await t.ctx.db
      .update(users)
      .set({ lastSeenAt: new Date(Date.now() - 6 * 60_000) })
      .where(eq(users.id, agentId));
    expect((await call('GET', `/api/admin/users/${agentId}`)).json().online).toBe(false);
  });

  it('creates a staff user with a whitelist and audits it without the password hash', async () => {
    const res = await call(
      'POST',
      '/api/admin/users',
      body({ email: 'Olga@Example.com', whitelist: '10.0.0.1, 10.0.0.2,10.0.0.1' }),
    );
    expect(res.statusCode).toBe(201);
    const { message, user } = res.json();
    expect(message).toBe('User added successfully');
    expect(user).toMatchObject({ full_name: 'Olga Ops', email: 'olga@example.com', role_id: 2, online: false });
    expect(user.whitelists).toEqual([{ ip_address: '10.0.0.1' }, { ip_address: '10.0.0.2' }]);
    expect((await call('GET', `/api/admin/users/${user.id}`)).json()).toEqual(user);
    await signIn(t.app, 'olga@example.com', 'Olga12345!', '10.0.0.2');
    expect((await call('GET', `/api/admin/users/${user.id}`)).json().online).toBe(true);

    const row = await lastAudit(user.id);
    expect(row).toMatchObject({ actorId: adminId, action: 'staff.create', before: null });
    expect(row.after).toMatchObject({ email: 'olga@example.com', role_id: 2, whitelist: ['10.0.0.1', '10.0.0.2'] });
    expect(JSON.stringify(row.after)).not.toMatch(/argon2|password/i);
  });

  it('refuses a taken email (any case) with errors.email, the customer role, and invalid input', async () => {
    const dup = await call('POST', '/api/admin/users', body({ email: 'CLIENT@demo.test' }));
    expect(dup.statusCode).toBe(409);
    expect(dup.json().errors.email).toMatch(/already exists/);
    const customer = await call('POST', '/api/admin/users', body({ email: 'c3@example.com', roleId: 3 }));
    expect(customer.statusCode).toBe(422);
    expect(customer.json().message).toBe('This role cannot be managed here.');
    const bad = await call('POST', '/api/admin/users', {
      ...body({ email: 'x', whitelist: 'not-an-ip' }),
      fullName: '',
      password: 'short',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toMatchObject({
      fullName: 'Full name is required',
      email: 'Invalid email',
      password: 'Password must be at least 8 characters',
      whitelist: 'Whitelist must be comma-separated IP addresses',
    });
  });

  it('lets only one of two simultaneous creations with one email through', async () => {
    const [a, b] = await Promise.all([
      call('POST', '/api/admin/users', body({ email: 'race@example.com' })),
      call('POST', '/api/admin/users', body({ email: 'RACE@example.com' })),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    expect([a, b].find((r) => r.statusCode === 409)!.json().errors.email).toMatch(/already exists/);
  });

  it('updates fields and replaces the whitelist; audit keeps before and after', async () => {
    const id = await create({ email: 'upd@example.com', whitelist: '10.9.9.9' });
    const res = await call(
      'PUT',
      `/api/admin/users/${id}`,
      body({ email: 'upd@example.com', fullName: 'Ursula Updated', roleId: 5, whitelist: '10.8.8.8', password: null }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('User updated successfully');
    const dto = (await call('GET', `/api/admin/users/${id}`)).json();
    expect(dto).toMatchObject({ full_name: 'Ursula Updated', role_id: 5, whitelists: [{ ip_address: '10.8.8.8' }] });
    const row = await lastAudit(id);
    expect(row).toMatchObject({ actorId: adminId, action: 'staff.update' });
    expect(row.before).toMatchObject({ full_name: 'Olga Ops', role_id: 2, whitelist: ['10.9.9.9'] });
    expect(row.after).toMatchObject({ full_name: 'Ursula Updated', role_id: 5, whitelist: ['10.8.8.8'] });
    expect(row.after).not.toHaveProperty('password_changed');

    const taken = await call('PUT', `/api/admin/users/${id}`, body({ email: DEMO.manager.toUpperCase() }));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().errors.email).toBeDefined();
    expect(
      (await call('PUT', `/api/admin/users/${id}`, body({ email: 'upd@example.com', roleId: 3 }))).statusCode,
    ).toBe(422);
  });

  it('ends all sessions of a user whose password changes or who is deactivated', async () => {
    const id = await create({ email: 'sess@example.com' });
    const cookie = await signIn(t.app, 'sess@example.com', 'Olga12345!');
    const me = () => t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } });
    expect((await me()).statusCode).toBe(200);
    // A plain edit (no password) keeps the session.
    expect(
      (await call('PUT', `/api/admin/users/${id}`, body({ email: 'sess@example.com', password: '' }))).statusCode,
    ).toBe(200);
    expect((await me()).statusCode).toBe(200);
    expect(
      (await call('PUT', `/api/admin/users/${id}`, body({ email: 'sess@example.com', password: 'Changed123!' })))
        .statusCode,
    ).toBe(200);
    expect((await me()).statusCode).toBe(401);
    expect((await lastAudit(id)).after).toMatchObject({ password_changed: true });

    const again = await signIn(t.app, 'sess@example.com', 'Changed123!');
    expect(
      (await call('PUT', `/api/admin/users/${id}`, body({ email: 'sess@example.com', isActive: false }))).statusCode,
    ).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: again } })).statusCode).toBe(
      401,
    );
    expect(await t.ctx.db.select().from(sessions).where(eq(sessions.userId, id))).toHaveLength(0);
  });

  it('soft-deletes a user, ends their sessions, and hides them afterwards', async () => {
    const id = await create({ email: 'del@example.com' });
    const cookie = await signIn(t.app, 'del@example.com', 'Olga12345!');
    const res = await call('DELETE', `/api/admin/users/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('User deleted successfully');
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, id));
    expect(row.deletedAt).not.toBeNull();
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(401);
    expect((await call('GET', `/api/admin/users/${id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/admin/users/${id}`)).statusCode).toBe(404);
    expect((await call('GET', '/api/admin/users/api?search=del@example.com')).json().meta.total).toBe(0);
    expect((await lastAudit(id)).action).toBe('staff.delete');
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'del@example.com', password: 'Olga12345!' },
    });
    expect(login.statusCode).toBe(401);
  });

  it('keeps customers out of reach (404) and refuses self-deletion and self-lockout (409)', async () => {
    const clientId = await idOf(DEMO.client);
    expect((await call('GET', `/api/admin/users/${clientId}`)).statusCode).toBe(404);
    expect((await call('PUT', `/api/admin/users/${clientId}`, body({ email: DEMO.client }))).statusCode).toBe(404);
    expect((await call('DELETE', `/api/admin/users/${clientId}`)).statusCode).toBe(404);
    expect((await call('GET', '/api/admin/users/99999999999')).statusCode).toBe(400);
    const self = await call('DELETE', `/api/admin/users/${adminId}`);
    expect(self.statusCode).toBe(409);
    expect(self.json().message).toBe('You cannot delete your own account.');
    const deactivateSelf = await call(
      'PUT',
      `/api/admin/users/${adminId}`,
      body({ email: DEMO.admin, roleId: 1, isActive: false }),
    );
    expect(deactivateSelf.statusCode).toBe(409);
  });

  it('lets an admin change their own password and keep the session in use', async () => {
    const mine = await signIn(t.app, DEMO.admin);
    const other = await signIn(t.app, DEMO.admin);
    const res = await call(
      'PUT',
      `/api/admin/users/${adminId}`,
      body({ email: DEMO.admin, fullName: 'Ada Admin', roleId: 1, password: 'NewAdmin123!' }),
      mine,
    );
    expect(res.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: mine } })).statusCode).toBe(
      200,
    );
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: other } })).statusCode).toBe(
      401,
    );
    admin = mine;
  });

  it('never removes the last active admin, even when two admins delete each other at once', async () => {
    const secondId = await create({ email: 'second-admin@example.com', roleId: 1 });
    const second = await signIn(t.app, 'second-admin@example.com', 'Olga12345!');
    const [a, b] = await Promise.all([
      call('DELETE', `/api/admin/users/${secondId}`, undefined, admin),
      call('DELETE', `/api/admin/users/${adminId}`, undefined, second),
    ]);
    // Exactly one wins; the other is refused as the last admin (409) or finds its own session gone (401).
    expect([a.statusCode, b.statusCode].filter((s) => s === 200)).toHaveLength(1);
    expect([a.statusCode, b.statusCode].filter((s) => s === 409 || s === 401)).toHaveLength(1);
    const admins = await t.ctx.db
      .select()
      .from(users)
      .where(and(eq(users.roleId, 1)));
    expect(admins.filter((u) => u.isActive && !u.deletedAt).length).toBeGreaterThanOrEqual(1);
    // Restore the demo admin if the second admin won the race, for the remaining tests.
    await t.ctx.db.update(users).set({ deletedAt: null }).where(eq(users.id, adminId));
  });

  it('is for admins only', async () => {
    for (const email of [DEMO.manager, DEMO.client, DEMO.agent]) {
      const cookie = await signIn(t.app, email);
      expect((await call('GET', '/api/admin/users/api', undefined, cookie)).statusCode).toBe(403);
      expect((await call('POST', '/api/admin/users', body({ email: 'x@example.com' }), cookie)).statusCode).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/users/api' })).statusCode).toBe(401);
  });
});
