import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { createTestApp, DEMO, ledgerAndBalance, ROLE_EMAIL, signIn, type TestApp } from '../../../test/helpers.ts';
import { auditLogs, balances, leads, ledgerEntries, orders, sessions, userProfiles, users } from '../../db/schema.ts';

let t: TestApp;
const cookies = new Map<number, string>();
let managerId: number;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp();
  for (const role of [1, 2, 3, 4, 5, 6]) cookies.set(role, await signIn(t.app, ROLE_EMAIL[role]));
  managerId = await idOf(DEMO.manager);
});
afterAll(async () => t.close());

const as = (role: number) => ({ cookie: cookies.get(role)! });
async function idOf(email: string): Promise<number> {
  return (await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0].id;
}
const call = (role: number | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url: `/api${url}`,
    headers: role === null ? {} : as(role),
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

const uniqueEmail = (p = 'cust') => `${p}${++seq}-${Date.now().toString(36)}@example.test`;
const newCustomer = (extra: Record<string, unknown> = {}) => ({
  fullName: 'Ada Lovelace',
  email: uniqueEmail(),
  password: 'Password123',
  isEmailVerified: true,
  isActive: true,
  phone: '+44 20 7946 0001',
  birthDate: '1990-05-04',
  country: 'United Kingdom',
  city: 'London',
  postalCode: 'N1',
  address: '1 Road',
  ...extra,
});

async function create(role = 1, extra: Record<string, unknown> = {}): Promise<{ id: number; email: string }> {
  const body = newCustomer(extra);
  const res = await call(role, 'POST', '/admin/customers', body);
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().id as number, email: body.email };
}
const walletsOf = (userId: number) =>
  t.ctx.db.select().from(balances).where(eq(balances.userId, userId)).orderBy(balances.id);

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

describe('balance adjustments', () => {
  it('adds and subtracts through the ledger with the reason, audited; balance = Σ ledger', async () => {
    const { id } = await create();
    const [real] = await walletsOf(id);
    const changed: Array<[number, string]> = [];
    const original = t.ctx.risk.balanceChanged.bind(t.ctx.risk);
    t.ctx.risk.balanceChanged = (walletId: number, balance: string | number) => {
      changed.push([walletId, String(balance)]);
      original(walletId, balance as never);
    };
    try {
      const add = await call(1, 'PUT', `/admin/balance/${real.id}`, { amount: '150.50', type: 'add', reason: 'Bonus' });
      expect(add.statusCode, add.body).toBe(200);
      expect(add.json().message).toBe('Balance updated successfully');
      const sub = await call(1, 'PUT', `/admin/balance/${real.id}`, {
        amount: 50,
        type: 'subtract',
        reason: 'Correction',
      });
      expect(sub.statusCode, sub.body).toBe(200);
    } finally {
      t.ctx.risk.balanceChanged = original;
    }
    expect(changed.map(([w, b]) => [w, Number(b)])).toEqual([
      [real.id, 150.5],
      [real.id, 100.5],
    ]);
    const { ledger, balance } = await ledgerAndBalance(t, real.id);
    expect(Number(balance)).toBe(100.5);
    expect(Number(ledger)).toBe(100.5);
    const entries = await t.ctx.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.balanceId, real.id))
      .orderBy(ledgerEntries.id);
    expect(entries.map((e) => [e.kind, Number(e.amount), e.note, e.actorId])).toEqual([
      ['adjustment', 150.5, 'Bonus', await idOf(DEMO.admin)],
      ['adjustment', -50, 'Correction', await idOf(DEMO.admin)],
    ]);
    const audits = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'balance.adjust'), eq(auditLogs.targetUserId, id)))
      .orderBy(auditLogs.id);
    expect(
      audits.map((a) => [
        Number((a.before as { balance: string }).balance),
        Number((a.after as { balance: string }).balance),
      ]),
    ).toEqual([
      [0, 150.5],
      [150.5, 100.5],
    ]);
  });

  it('refuses to go below zero or below the held margin (400)', async () => {
    const { id } = await create();
    const [real] = await walletsOf(id);
    await call(1, 'PUT', `/admin/balance/${real.id}`, { amount: 100, type: 'add', reason: 'Fund' });
    const over = await call(1, 'PUT', `/admin/balance/${real.id}`, {
      amount: '100.01',
      type: 'subtract',
      reason: 'Too much',
    });
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toBe('The wallet cannot go below zero or below the margin its open positions hold.');
    await t.ctx.db.update(balances).set({ margin: '80' }).where(eq(balances.id, real.id));
    expect(
      (await call(1, 'PUT', `/admin/balance/${real.id}`, { amount: 21, type: 'subtract', reason: 'Into margin' }))
        .statusCode,
    ).toBe(400);
    expect(
      (await call(1, 'PUT', `/admin/balance/${real.id}`, { amount: 20, type: 'subtract', reason: 'Down to margin' }))
        .statusCode,
    ).toBe(200);
    await t.ctx.db.update(balances).set({ margin: '0' }).where(eq(balances.id, real.id));
    const { ledger, balance } = await ledgerAndBalance(t, real.id);
    expect([Number(ledger), Number(balance)]).toEqual([80, 80]);
  });

  it('never lets concurrent subtractions overdraw the wallet', async () => {
    const { id } = await create();
    const [real] = await walletsOf(id);
    await call(1, 'PUT', `/admin/balance/${real.id}`, { amount: 100, type: 'add', reason: 'Fund' });
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        call(1, 'PUT', `/admin/balance/${real.id}`, { amount: 30, type: 'subtract', reason: 'Race' }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(3);
    expect(results.filter((r) => r.statusCode === 400)).toHaveLength(7);
    const { ledger, balance } = await ledgerAndBalance(t, real.id);
    expect([Number(ledger), Number(balance)]).toEqual([10, 10]);
  });

  it('is for admins and the customer’s manager only; bad input is a 400', async () => {
    const { id } = await create();
    const [real] = await walletsOf(id);
    const body = { amount: 1, type: 'add', reason: 'x' };
    expect((await call(2, 'PUT', `/admin/balance/${real.id}`, body)).statusCode).toBe(404);
    for (const role of [3, 4, 5, 6])
      expect((await call(role, 'PUT', `/admin/balance/${real.id}`, body)).statusCode).toBe(403);
    expect((await call(1, 'PUT', '/admin/balance/999999', body)).statusCode).toBe(404);
    expect((await call(1, 'PUT', `/admin/balance/${real.id}`, { ...body, type: 'multiply' })).statusCode).toBe(400);
    expect((await call(1, 'PUT', `/admin/balance/${real.id}`, { ...body, amount: -5 })).statusCode).toBe(400);
    expect((await call(1, 'PUT', `/admin/balance/${real.id}`, { ...body, amount: 0 })).statusCode).toBe(400);
    expect((await call(1, 'PUT', `/admin/balance/${real.id}`, { ...body, reason: '' })).json().errors.reason).toBe(
      'Reason is required',
    );
    const [mgrWallet] = await walletsOf(await idOf(DEMO.client));
    const ok = await call(2, 'PUT', `/admin/balance/${mgrWallet.id}`, {
      amount: 1,
      type: 'add',
      reason: 'Manager bonus',
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

describe('delete customer', () => {
  it('deactivates and anonymises, ends sessions, keeps wallets, ledger and orders; the customer cannot sign in', async () => {
    const { id, email } = await create();
    const session = await signIn(t.app, email, 'Password123');
    const [real, demo] = await walletsOf(id);
    await call(1, 'PUT', `/admin/balance/${real.id}`, { amount: 25, type: 'add', reason: 'Fund' });
    // A closed trade in its history.
    const placed = await t.app.inject({
      method: 'POST',
      url: '/api/dashboard/orders',
      headers: { cookie: session },
      payload: { type: 'buy', instrument: 'EUR_USD', amount: 1000 },
    });
    expect(placed.statusCode, placed.body).toBeLessThan(300);
    const refused = await call(1, 'DELETE', `/admin/customers/${id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This customer has open positions. Close them before deleting the customer.');
    const [open] = await t.ctx.db.select().from(orders).where(eq(orders.userId, id));
    const closed = await t.app.inject({
      method: 'POST',
      url: '/api/dashboard/orders/close',
      headers: { cookie: session },
      payload: { orderId: open.id, instrument: 'EUR_USD' },
    });
    expect(closed.statusCode, closed.body).toBeLessThan(300);

    const res = await call(1, 'DELETE', `/admin/customers/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Customers deleted successfully');
    const [u] = await t.ctx.db.select().from(users).where(eq(users.id, id));
    expect(u).toMatchObject({
      isActive: false,
      fullName: `Deleted customer #${id}`,
      email: `deleted-customer-${id}@deleted.invalid`,
    });
    expect(u.deletedAt).not.toBeNull();
    const [p] = await t.ctx.db.select().from(userProfiles).where(eq(userProfiles.userId, id));
    expect(p).toMatchObject({ phone: null, birthDate: null, address: null });
    expect(await t.ctx.db.select().from(sessions).where(eq(sessions.userId, id))).toEqual([]);
    expect((await walletsOf(id)).map((w) => w.id)).toEqual([real.id, demo.id]);
    expect(await t.ctx.db.select().from(orders).where(eq(orders.userId, id))).toHaveLength(1);
    for (const w of [real, demo]) {
      const { ledger, balance } = await ledgerAndBalance(t, w.id);
      expect(Number(ledger)).toBe(Number(balance));
    }
    expect(
      (await t.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.balanceId, real.id))).length,
    ).toBeGreaterThan(0);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: 'Password123' },
    });
    expect(login.statusCode).toBe(401);
    const [audit] = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'customer.delete'), eq(auditLogs.targetUserId, id)));
    expect(audit.before).toMatchObject({ email, full_name: 'Ada Lovelace' });
    expect(audit.after).toMatchObject({ deleted: true, email: `deleted-customer-${id}@deleted.invalid` });
    // Gone from lists and screens; the email is free again.
    expect(
      (await call(1, 'GET', `/admin/customers/api/all?search=${id}`)).json().data.map((r: { id: number }) => r.id),
    ).not.toContain(id);
    expect((await call(1, 'GET', `/admin/share/users/${id}`)).statusCode).toBe(404);
    expect((await call(1, 'DELETE', `/admin/customers/${id}`)).statusCode).toBe(404);
    expect((await call(1, 'POST', '/admin/customers', newCustomer({ email }))).statusCode).toBe(201);
  });

  it('is scoped: another manager’s customer or a staff id is 404, other roles 403', async () => {
    const { id } = await create();
    expect((await call(2, 'DELETE', `/admin/customers/${id}`)).statusCode).toBe(404);
    expect((await call(1, 'DELETE', `/admin/customers/${managerId}`)).statusCode).toBe(404);
    for (const role of [3, 4, 5, 6])
      expect((await call(role, 'DELETE', `/admin/customers/${id}`)).statusCode).toBe(403);
    const mine = await create(2);
    expect((await call(2, 'DELETE', `/admin/customers/${mine.id}`)).statusCode).toBe(200);
  });
});

describe('login as, within scope and with limits', () => {
  const loginAs = (id: number, cookie: string) =>
    t.app.inject({ method: 'POST', url: `/api/admin/customers/login-as/${id}`, headers: { cookie } });

  it('lets a manager log in only as their own customers', async () => {
    const other = await create(1);
    const manager = await signIn(t.app, DEMO.manager);
    expect((await loginAs(other.id, manager)).statusCode).toBe(404);
    const mine = await create(2);
    expect((await loginAs(mine.id, manager)).statusCode).toBe(200);
  });

  it('refuses password changes and withdrawals while impersonating; going back is audited', async () => {
    const { id } = await create();
    const admin = await signIn(t.app, DEMO.admin);
    const res = await loginAs(id, admin);
    const asCustomer = res.headers['set-cookie'] ? String(res.headers['set-cookie']).split(';')[0] : '';
    const pw = await t.app.inject({
      method: 'PUT',
      url: '/api/security/password',
      headers: { cookie: asCustomer },
      payload: { currentPassword: 'Password123', newPassword: 'Another123' },
    });
    expect(pw.statusCode).toBe(403);
    expect(pw.json().message).toBe('Not available while signed in as this customer.');
    const [real] = await walletsOf(id);
    const withdraw = await t.app.inject({
      method: 'POST',
      url: '/api/withdraws/bank',
      headers: { cookie: asCustomer },
      payload: {
        balance_id: real.id,
        amount: 1,
        bank_name: 'B',
        account_name: 'A',
        account_number: '1',
        swift_code: 'S',
        bank_country: 'France',
      },
    });
    expect(withdraw.statusCode).toBe(403);
    expect(withdraw.json().message).toBe('Not available while signed in as this customer.');
    // The customer has no email change of their own: the profile form takes no email.
    const email = await t.app.inject({
      method: 'PUT',
      url: '/api/profile/me',
      headers: { cookie: asCustomer },
      payload: { ...newCustomer(), email: 'x@example.test' },
    });
    expect(email.statusCode).toBeLessThan(300);
    const [after] = await t.ctx.db.select().from(users).where(eq(users.id, id));
    expect(after.email).not.toBe('x@example.test');
    const back = await t.app.inject({
      method: 'POST',
      url: '/api/authManager/back-to-admin',
      headers: { cookie: asCustomer },
    });
    expect(back.statusCode).toBe(200);
    const [audit] = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.action, 'customer.back_to_admin'))
      .orderBy(desc(auditLogs.id))
      .limit(1);
    expect(audit).toMatchObject({ actorId: await idOf(DEMO.admin), targetUserId: id });
  });
});
