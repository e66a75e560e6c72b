import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { DEMO, ledgerAndBalance, signIn, type TestApp } from '../../../test/helpers.ts';
import { auditLogs, ledgerEntries, orders, sessions, userProfiles, users } from '../../db/schema.ts';
import { customersKit } from './customers-testing.ts';

let t: TestApp;
let managerId: number;
const { idOf, call, newCustomer, create, walletsOf, start } = customersKit();

beforeAll(async () => {
  t = await start();
  managerId = await idOf(DEMO.manager);
});
afterAll(async () => t.close());

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
