import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { DEMO, ledgerAndBalance, signIn, type TestApp } from '../../../test/helpers.ts';
import { auditLogs, leads, userProfiles, users } from '../../db/schema.ts';
import { customersKit } from './customers-testing.ts';

let t: TestApp;
let managerId: number;
let seq = 0;
const { idOf, call, newCustomer, create, walletsOf, start } = customersKit();

beforeAll(async () => {
  t = await start();
  managerId = await idOf(DEMO.manager);
});
afterAll(async () => t.close());

describe('customers list', () => {
  it('lists customers with the spec columns, newest first, searched by name, email or phone; inactive ones apart', async () => {
    const active = await create(1, { fullName: 'Zebulon Quartz', phone: '+1 555 0101 777' });
    const inactive = await create(1, { fullName: 'Zebulon Asleep', isActive: false });
    const all = (await call(1, 'GET', '/admin/customers/api/all?search=Zebulon')).json();
    expect(all.data.map((r: { id: number }) => r.id)).toEqual([inactive.id, active.id]);
    expect(all.meta.total).toBe(2);
    expect(all.data[1]).toEqual({
      id: active.id,
      full_name: 'Zebulon Quartz',
      email: active.email,
      phone: '+1 555 0101 777',
      birth_date: '1990-05-04',
      country: 'United Kingdom',
      role_id: 3,
      is_email_verified: true,
      is_active: true,
      // Customer 360: the main real wallet opened at sign-up, nothing deposited, no KYC, never signed in.
      wallet_id: expect.any(Number),
      currency: 'USD',
      balance: '0.00000000',
      equity: '0.00',
      ftd_at: null,
      ftd_amount: null,
      ftd_currency: null,
      kyc_status: 'none',
      last_login_at: null,
      online: false,
    });
    const onlyInactive = (await call(1, 'GET', '/admin/customers/api/inactive?search=Zebulon')).json();
    expect(onlyInactive.data.map((r: { id: number }) => r.id)).toEqual([inactive.id]);
    expect(
      (await call(1, 'GET', `/admin/customers/api/all?search=${encodeURIComponent(active.email)}`)).json().data,
    ).toHaveLength(1);
    expect(
      (await call(1, 'GET', '/admin/customers/api/all?search=0101%20777')).json().data.map((r: { id: number }) => r.id),
    ).toEqual([active.id]);
    // Staff never appear among customers.
    const staff = (await call(1, 'GET', '/admin/customers/api/all?search=demo.test&limit=100')).json();
    expect(staff.data.every((r: { role_id: number }) => r.role_id === 3)).toBe(true);
  });

  it('shows a manager only the customers assigned to them', async () => {
    const mine = await create(2);
    const other = await create(1);
    const list = (await call(2, 'GET', '/admin/customers/api/all?limit=100')).json();
    const ids = list.data.map((r: { id: number }) => r.id);
    expect(ids).toContain(mine.id);
    expect(ids).toContain(await idOf(DEMO.client));
    expect(ids).not.toContain(other.id);
  });

  it('is refused to other roles and to bad input', async () => {
    for (const role of [3, 4, 5, 6]) expect((await call(role, 'GET', '/admin/customers/api/all')).statusCode).toBe(403);
    expect((await call(null, 'GET', '/admin/customers/api/all')).statusCode).toBe(401);
    expect((await call(1, 'GET', '/admin/customers/api/deleted')).statusCode).toBe(400);
    expect((await call(1, 'GET', '/admin/customers/api/all?limit=1000')).statusCode).toBe(400);
  });
});

describe('add customer', () => {
  it('creates the customer with the wallets sign-up opens, audited', async () => {
    const { id } = await create();
    const w = await walletsOf(id);
    expect(w.map((x) => x.mode)).toEqual(['real', 'demo']);
    const [u] = await t.ctx.db.select().from(users).where(eq(users.id, id));
    expect(u).toMatchObject({ roleId: 3, isActive: true, isEmailVerified: true, activeBalanceId: w[1].id });
    for (const wallet of w) {
      const { ledger, balance } = await ledgerAndBalance(t, wallet.id);
      expect(Number(ledger)).toBe(Number(balance));
    }
    const [audit] = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'customer.create'), eq(auditLogs.targetUserId, id)));
    expect(audit.after).toMatchObject({ full_name: 'Ada Lovelace', manager_id: null });
    // The new customer can sign in.
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: u.email, password: 'Password123' },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('assigns a manager’s new customer to that manager', async () => {
    const { id } = await create(2);
    const [p] = await t.ctx.db.select().from(userProfiles).where(eq(userProfiles.userId, id));
    expect(p.managerId).toBe(managerId);
  });

  it('answers the spec’s validation messages and refuses a taken email', async () => {
    const bad = async (body: Record<string, unknown>) => (await call(1, 'POST', '/admin/customers', body)).json();
    const r1 = await call(1, 'POST', '/admin/customers', { ...newCustomer(), fullName: '' });
    expect(r1.statusCode).toBe(400);
    expect(r1.json().errors.fullName).toBe('Full name is required');
    expect((await bad({ ...newCustomer(), email: 'nope' })).errors.email).toBe('Invalid email');
    expect((await bad({ ...newCustomer(), email: '' })).errors.email).toBe('Email is required');
    expect((await bad({ ...newCustomer(), password: 'short' })).errors.password).toBe(
      'Password must be at least 8 characters',
    );
    expect((await bad({ ...newCustomer(), isActive: undefined })).errors.isActive).toBe('Active status is required');
    expect((await bad({ ...newCustomer(), isEmailVerified: undefined })).errors.isEmailVerified).toBe(
      'Email verification is required',
    );
    expect((await bad({ ...newCustomer(), country: 'Atlantis' })).errors.country).toBe('Unknown country');
    // Profile fields are optional for staff.
    expect(
      (await call(1, 'POST', '/admin/customers', { ...newCustomer(), phone: '', birthDate: '', country: '', city: '' }))
        .statusCode,
    ).toBe(201);
    const taken = await call(1, 'POST', '/admin/customers', { ...newCustomer(), email: DEMO.client.toUpperCase() });
    expect(taken.statusCode).toBe(409);
    for (const role of [3, 4, 5, 6])
      expect((await call(role, 'POST', '/admin/customers', newCustomer())).statusCode).toBe(403);
  });
});

describe('customer detail (share endpoint)', () => {
  it('returns the customer with balances and profile to admins and their manager, 404 otherwise', async () => {
    const clientId = await idOf(DEMO.client);
    const res = await call(1, 'GET', `/admin/share/users/${clientId}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ id: clientId, email: DEMO.client, role_id: 3, read_only: false, online: false });
    expect(body.balances.length).toBeGreaterThanOrEqual(2);
    expect(body.profile.manager_id).toBe(managerId);
    expect((await call(2, 'GET', `/admin/share/users/${clientId}`)).statusCode).toBe(200);
    const other = await create(1);
    expect((await call(2, 'GET', `/admin/share/users/${other.id}`)).statusCode).toBe(404);
    expect((await call(1, 'GET', '/admin/share/users/999999')).statusCode).toBe(404);
    // Staff accounts are not customers (but each staff member reaches their own Profile).
    expect((await call(1, 'GET', `/admin/share/users/${managerId}`)).statusCode).toBe(404);
    const own = await call(5, 'GET', `/admin/share/users/${await idOf(DEMO.agent)}`);
    expect(own.statusCode).toBe(200);
    expect(own.json().read_only).toBe(true);
    expect((await call(5, 'GET', `/admin/share/users/${clientId}`)).statusCode).toBe(404);
    expect((await call(3, 'GET', `/admin/share/users/${clientId}`)).statusCode).toBe(403);
  });

  it('shows a retention agent only the customers whose lead is in their care, masked and read-only', async () => {
    const local = `maskedperson${++seq}x`;
    const { id } = await create(1, { email: `${local}@example.test`, phone: '+44 7700 900123' });
    // Not (yet) theirs: as if it did not exist.
    expect((await call(6, 'GET', `/admin/share/users/${id}`)).statusCode).toBe(404);
    expect((await call(6, 'POST', `/admin/customers/login-as/${id}`)).statusCode).toBe(403);
    await t.ctx.db.insert(leads).values({
      firstName: 'Ada',
      email: `${local}@example.test`,
      leadStatus: 'New',
      group: 'retentions',
      linkedUserId: id,
      retId: await idOf(DEMO.retention),
    });
    const body = (await call(6, 'GET', `/admin/share/users/${id}`)).json();
    expect(body.email).toBe(`ma${local.slice(-2)}****@example.test`);
    expect(body.profile.phone).toBe('******23');
    expect(body.read_only).toBe(true);
  });
});

describe('edit customer', () => {
  it('updates the profile, manager and plan as an admin, audited; a new password ends the customer’s sessions', async () => {
    const { id, email } = await create();
    const session = await signIn(t.app, email, 'Password123');
    // Used once, so the session sits in the server's short-lived session cache: the change must drop it from there too.
    expect((await t.app.inject({ url: '/api/auth/user', headers: { cookie: session } })).statusCode).toBe(200);
    const res = await call(1, 'PUT', `/admin/customers/${id}`, {
      ...newCustomer({ email }),
      fullName: 'Ada King',
      password: 'NewPassword1',
      city: 'Paris',
      country: 'France',
      managerId,
      pricingTableId: -2,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Customer updated successfully');
    const [u] = await t.ctx.db.select().from(users).where(eq(users.id, id));
    const [p] = await t.ctx.db.select().from(userProfiles).where(eq(userProfiles.userId, id));
    expect(u.fullName).toBe('Ada King');
    expect(p).toMatchObject({ city: 'Paris', country: 'France', managerId });
    expect((await t.app.inject({ url: '/api/auth/user', headers: { cookie: session } })).statusCode).toBe(401);
    const [audit] = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'customer.update'), eq(auditLogs.targetUserId, id)));
    expect(audit.before).toMatchObject({ full_name: 'Ada Lovelace', manager_id: null });
    expect(audit.after).toMatchObject({ full_name: 'Ada King', manager_id: managerId, password_changed: true });
    // Now the manager's customer: the manager edits it but cannot move it to another manager or plan.
    const res2 = await call(2, 'PUT', `/admin/customers/${id}`, {
      ...newCustomer({ email }),
      fullName: 'Ada M',
      managerId: -2,
      pricingTableId: 1,
    });
    expect(res2.statusCode, res2.body).toBe(200);
    const [u2] = await t.ctx.db.select().from(users).where(eq(users.id, id));
    const [p2] = await t.ctx.db.select().from(userProfiles).where(eq(userProfiles.userId, id));
    expect(u2).toMatchObject({ fullName: 'Ada M', pricingTableId: null });
    expect(p2.managerId).toBe(managerId);
  });

  it('refuses other managers’ customers (404), retention agents (403), bad input (400)', async () => {
    const { id, email } = await create();
    const body = newCustomer({ email });
    expect((await call(2, 'PUT', `/admin/customers/${id}`, body)).statusCode).toBe(404);
    expect((await call(1, 'PUT', '/admin/customers/999999', body)).statusCode).toBe(404);
    expect((await call(1, 'PUT', `/admin/customers/${managerId}`, body)).statusCode).toBe(404);
    for (const role of [3, 4, 5, 6])
      expect((await call(role, 'PUT', `/admin/customers/${id}`, body)).statusCode).toBe(403);
    const shortPw = await call(1, 'PUT', `/admin/customers/${id}`, { ...body, password: 'short' });
    expect(shortPw.json().errors.password).toBe('Password must be at least 8 characters');
    const agentAsManager = await call(1, 'PUT', `/admin/customers/${id}`, {
      ...body,
      managerId: await idOf(DEMO.agent),
    });
    expect(agentAsManager.statusCode).toBe(400);
    expect((await call(1, 'PUT', `/admin/customers/${id}`, { ...body, pricingTableId: 999999 })).statusCode).toBe(400);
    expect((await call(1, 'PUT', `/admin/customers/${id}`, { ...body, roleId: 1 })).statusCode).toBe(400);
    expect((await call(1, 'PUT', `/admin/customers/${id}`, { ...body, email: DEMO.admin })).statusCode).toBe(409);
  });
});

describe('pickers', () => {
  it('lists managers, agents and retention agents to admins and managers', async () => {
    const managers = (await call(2, 'GET', '/admin/share/users/role/2')).json();
    expect(managers.data).toContainEqual({ id: managerId, full_name: expect.any(String), email: DEMO.manager });
    expect(
      (await call(1, 'GET', '/admin/share/users/role/5')).json().data.map((u: { email: string }) => u.email),
    ).toContain(DEMO.agent);
    expect(
      (await call(1, 'GET', '/admin/share/users/role/6')).json().data.map((u: { email: string }) => u.email),
    ).toContain(DEMO.retention);
    expect((await call(1, 'GET', '/admin/share/users/role/3')).statusCode).toBe(400);
    expect((await call(1, 'GET', '/admin/share/users/role/1')).statusCode).toBe(400);
    for (const role of [3, 4, 5, 6])
      expect((await call(role, 'GET', '/admin/share/users/role/2')).statusCode).toBe(403);
  });
});
