import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { io as connect, type Socket } from 'socket.io-client';
import type { PresenceEvent, TrackEntry } from '@platform/domain';
import { createTestApp, DEMO, newVerifiedCustomer, signIn, type TestApp } from '../../../test/helpers.ts';
import { leads, users } from '../../db/schema.ts';

let t: TestApp;
let base: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  t.ctx.realtime.attach(t.app.server, t.ctx.db);
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.ctx.realtime.close();
  await t.close();
});

const idOf = async (email: string) =>
  (await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0].id;

async function socketAs(email: string, password?: string): Promise<Socket> {
  const cookie = await signIn(t.app, email, password, '127.0.0.1');
  const s = connect(base, {
    path: '/socket.io',
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    extraHeaders: { cookie },
  });
  sockets.push(s);
  await new Promise<void>((resolve, reject) => {
    s.once('connect', () => resolve());
    s.once('connect_error', reject);
  });
  return s;
}
const watch = (s: Socket, userId: number) => s.emitWithAck('track:watch', { userId }) as Promise<{ ok: boolean }>;

describe('tracking a customer’s page views', () => {
  it('relays track:{userId} to staff who may see the customer and watch them', async () => {
    const clientId = await idOf(DEMO.client);
    const admin = await socketAs(DEMO.admin);
    const manager = await socketAs(DEMO.manager);
    const agent = await socketAs(DEMO.agent);
    const retention = await socketAs(DEMO.retention);
    expect(await watch(admin, clientId)).toEqual({ ok: true });
    expect(await watch(manager, clientId)).toEqual({ ok: true });
    // A retention agent watches only the customers in their care.
    expect(await watch(retention, clientId)).toEqual({ ok: false });
    await t.ctx.db.insert(leads).values({
      firstName: 'Chris',
      leadStatus: 'New',
      group: 'clients',
      linkedUserId: clientId,
      retId: await idOf(DEMO.retention),
    });
    expect(await watch(retention, clientId)).toEqual({ ok: true });
    expect(await watch(agent, clientId)).toEqual({ ok: false });
    expect(await watch(admin, await idOf(DEMO.manager))).toEqual({ ok: false });
    expect(await watch(admin, 0)).toEqual({ ok: false });
    const leaked: unknown[] = [];
    agent.onAny((event: string, payload: unknown) => leaked.push({ event, payload }));

    const client = await socketAs(DEMO.client);
    const seen = (s: Socket) => new Promise<TrackEntry>((resolve) => s.once(`track:${clientId}`, resolve));
    const [a, m, r] = [seen(admin), seen(manager), seen(retention)];
    client.emit('track', { url: '/dashboard' });
    for (const entry of await Promise.all([a, m, r])) {
      expect(entry.url).toBe('/dashboard');
      expect(Date.parse(entry.time)).toBeGreaterThan(Date.now() - 10_000);
    }
    // Junk is dropped; an unwatch stops the relay.
    client.emit('track', { url: 'javascript:alert(1)' });
    client.emit('track', 'nope');
    await admin.emitWithAck('track:watch', { userId: clientId });
    manager.emit('track:unwatch', { userId: clientId });
    const next = seen(admin);
    const managerGot: unknown[] = [];
    manager.on(`track:${clientId}`, (e: unknown) => managerGot.push(e));
    await new Promise((res) => setTimeout(res, 100));
    client.emit('track', { url: '/deposits' });
    expect((await next).url).toBe('/deposits');
    await new Promise((res) => setTimeout(res, 200));
    expect(managerGot).toEqual([]);
    expect(leaked.filter((l) => (l as { event: string }).event.startsWith('track'))).toEqual([]);
    client.disconnect();
  });

  it('tells a manager of another manager’s customer nothing', async () => {
    const other = await newVerifiedCustomer(t, 'livescope');
    const manager = await socketAs(DEMO.manager);
    expect(await watch(manager, other.id)).toEqual({ ok: false });
  });
});

describe('presence', () => {
  it('tells admins and the customer’s manager when the customer comes online and goes offline', async () => {
    const clientId = await idOf(DEMO.client);
    const admin = await socketAs(DEMO.admin);
    const manager = await socketAs(DEMO.manager);
    const events = (s: Socket) => {
      const got: PresenceEvent[] = [];
      s.on('presence', (e: PresenceEvent) => got.push(e));
      return got;
    };
    const adminGot = events(admin);
    const managerGot = events(manager);
    const online = new Promise((resolve) => manager.once('presence', resolve));
    const client = await socketAs(DEMO.client);
    await online;
    const list = await t.app.inject({
      url: '/api/admin/customers/api/all?search=client@demo.test',
      headers: { cookie: await signIn(t.app, DEMO.admin) },
    });
    expect(list.json().data[0].online).toBe(true);
    const offline = new Promise((resolve) =>
      admin.on('presence', (e: PresenceEvent) => !e.online && e.userId === clientId && resolve(e)),
    );
    client.disconnect();
    await offline;
    expect(adminGot.filter((e) => e.userId === clientId).at(-1)).toEqual({ userId: clientId, online: false });
    expect(managerGot.filter((e) => e.userId === clientId)[0]).toEqual({ userId: clientId, online: true });
    const after = await t.app.inject({
      url: '/api/admin/customers/api/all?search=client@demo.test',
      headers: { cookie: await signIn(t.app, DEMO.admin) },
    });
    expect(after.json().data[0].online).toBe(false);
  });
});

describe('deleted customers', () => {
  it('lose their open sockets at once', async () => {
    const c = await newVerifiedCustomer(t, 'livedelete');
    const s = await socketAs(c.email, c.password);
    const closed = new Promise((resolve) => s.once('disconnect', resolve));
    const admin = await signIn(t.app, DEMO.admin);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/customers/${c.id}`,
      headers: { cookie: admin },
    });
    expect(res.statusCode).toBe(200);
    await closed;
    expect(s.connected).toBe(false);
  });
});
