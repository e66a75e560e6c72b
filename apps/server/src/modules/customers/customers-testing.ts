import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { createTestApp, ROLE_EMAIL, signIn, type TestApp } from '../../../test/helpers.ts';
import { balances, users } from '../../db/schema.ts';

/**
 * The app, sign-ins and customer fixtures the customers tests share. Each test file calls `start` in its own
 * beforeAll: files run in parallel workers, each on its own database.
 */
export function customersKit() {
  let t: TestApp;
  const cookies = new Map<number, string>();
  let seq = 0;

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

  /** A fresh app with every role's demo account signed in. */
  async function start(): Promise<TestApp> {
    t = await createTestApp();
    for (const role of [1, 2, 3, 4, 5, 6]) cookies.set(role, await signIn(t.app, ROLE_EMAIL[role]));
    return t;
  }

  return { idOf, call, newCustomer, create, walletsOf, start };
}
