import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, signIn, DEMO, type TestApp } from '../../../test/helpers.ts';
import { users } from '../../db/schema.ts';
import { notify } from './service.ts';

let t: TestApp;
const emitted: Array<{ userId: number; event: string; payload: unknown }> = [];
beforeAll(async () => {
  t = await createTestApp();
  // Records what notify() hands to the realtime layer; the socket delivery itself is tested in integrations/.
  t.ctx.realtime.toUser = (userId, event, payload) => void emitted.push({ userId, event, payload });
});
afterAll(async () => t.close());

const idOf = async (email: string) =>
  (await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0].id;

describe('notifications', () => {
  it('notify() stores the notification and emits user:{id} with it', async () => {
    const clientId = await idOf(DEMO.client);
    const dto = await notify(t.ctx, clientId, {
      title: 'Deposit approved',
      description: 'Your deposit of 100 USD was approved.',
      url: '/deposits',
    });
    expect(dto).toMatchObject({ title: 'Deposit approved', url: '/deposits', read: false });
    expect(emitted.at(-1)).toEqual({ userId: clientId, event: `user:${clientId}`, payload: dto });
  });

  it('lists only the caller’s latest 50, newest first, with the unread count, and marks all read', async () => {
    const clientId = await idOf(DEMO.client);
    const managerId = await idOf(DEMO.manager);
    for (let i = 1; i <= 55; i++) await notify(t.ctx, clientId, { title: `Note ${i}` });
    await notify(t.ctx, managerId, { title: 'For the manager only' });

    const cookie = await signIn(t.app, DEMO.client);
    const res = await t.app.inject({ method: 'GET', url: '/api/notifications', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    const { data, unread } = res.json();
    expect(data).toHaveLength(50);
    expect(data[0].title).toBe('Note 55');
    expect(unread).toBe(56);
    expect(data.map((n: { title: string }) => n.title)).not.toContain('For the manager only');

    const read = await t.app.inject({ method: 'POST', url: '/api/notifications/read', headers: { cookie } });
    expect(read.statusCode).toBe(200);
    expect(read.json().message).toBeTruthy();
    const after = (await t.app.inject({ method: 'GET', url: '/api/notifications', headers: { cookie } })).json();
    expect(after.unread).toBe(0);
    expect(after.data.every((n: { read: boolean }) => n.read)).toBe(true);

    // Marking the client's as read left the manager's untouched.
    const manager = await signIn(t.app, DEMO.manager);
    const theirs = (
      await t.app.inject({ method: 'GET', url: '/api/notifications', headers: { cookie: manager } })
    ).json();
    expect(theirs).toMatchObject({ unread: 1, data: [{ title: 'For the manager only', read: false }] });
  });

  it('requires a signed-in user', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/notifications' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/notifications/read' })).statusCode).toBe(401);
  });
});
