import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, DEMO, signIn, type TestApp } from '../../../test/helpers.ts';
import { users } from '../../db/schema.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('own name (back-office Profile)', () => {
  it('lets a staff member change their own name, and only their own, with the spec message when blank', async () => {
    const manager = await signIn(t.app, DEMO.manager);
    const put = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PUT', url: '/api/profile/name', headers: { cookie: manager }, payload });
    const res = await put({ fullName: '  Morgan Manager  ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Profile updated successfully');
    const [me] = await t.ctx.db.select().from(users).where(eq(users.email, DEMO.manager));
    expect(me.fullName).toBe('Morgan Manager');
    const blank = await put({ fullName: '' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().errors).toMatchObject({ fullName: 'Full name is required' });
    // Nothing but the name: another user's id in the body changes nobody else.
    expect((await put({ fullName: 'Max', id: 1, roleId: 1 })).statusCode).toBe(200);
    const [admin] = await t.ctx.db.select().from(users).where(eq(users.email, DEMO.admin));
    expect(admin.fullName).not.toBe('Max');
    expect((await t.ctx.db.select().from(users).where(eq(users.email, DEMO.manager)))[0].roleId).toBe(2);
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/profile/name', payload: { fullName: 'X' } })).statusCode,
    ).toBe(401);
  });
});
