import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { DEMO, signIn, type TestApp } from '../../../test/helpers.ts';
import { auditLogs, users } from '../../db/schema.ts';
import { customersKit } from './customers-testing.ts';

let t: TestApp;
const { idOf, newCustomer, create, walletsOf, start } = customersKit();

beforeAll(async () => {
  t = await start();
});
afterAll(async () => t.close());

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
