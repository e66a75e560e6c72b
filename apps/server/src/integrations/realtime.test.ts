import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { io as connect, type Socket } from 'socket.io-client';
import type { NotificationDto } from '@platform/domain';
import { createTestApp, signIn, DEMO, type TestApp } from '../../test/helpers.ts';
import { users } from '../db/schema.ts';
import { notify } from '../modules/notifications/service.ts';

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

/** A connected socket carrying the given session cookie (none: anonymous) and, optionally, the page's Origin. */
async function socketWith(cookie?: string, origin?: string): Promise<Socket> {
  const headers: Record<string, string> = { ...(cookie ? { cookie } : {}), ...(origin ? { origin } : {}) };
  const s = connect(base, {
    path: '/socket.io',
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    extraHeaders: headers,
  });
  sockets.push(s);
  await new Promise<void>((resolve, reject) => {
    s.once('connect', () => resolve());
    s.once('connect_error', reject);
  });
  return s;
}

describe('realtime notifications', () => {
  it('delivers user:{id} to that user’s sockets only', async () => {
    const clientId = await idOf(DEMO.client);
    const client = await socketWith(await signIn(t.app, DEMO.client, undefined, '127.0.0.1'));
    const other = await socketWith(await signIn(t.app, DEMO.manager, undefined, '127.0.0.1'));
    const anonymous = await socketWith();

    const leaked: unknown[] = [];
    for (const s of [other, anonymous]) s.onAny((event: string, payload: unknown) => leaked.push({ event, payload }));

    const arrived = new Promise<NotificationDto>((resolve) => client.once(`user:${clientId}`, resolve));
    const sent = await notify(t.ctx, clientId, {
      title: 'Withdrawal approved',
      description: 'Sent to your bank.',
      url: '/withdraws',
    });
    const got = await arrived;
    expect(got).toEqual(sent);
    expect(got.title).toBe('Withdrawal approved');

    // Give a misrouted event time to arrive before asserting it did not.
    await new Promise((r) => setTimeout(r, 200));
    expect(leaked).toEqual([]);
  });
});

describe('provider heartbeats', () => {
  it('reach signed-in admins only (the API Status screen is role 1)', async () => {
    const admin = await socketWith(await signIn(t.app, DEMO.admin, undefined, '127.0.0.1'));
    const others = [
      await socketWith(await signIn(t.app, DEMO.manager, undefined, '127.0.0.1')),
      await socketWith(await signIn(t.app, DEMO.client, undefined, '127.0.0.1')),
      await socketWith(),
    ];
    const leaked: unknown[] = [];
    for (const s of others) s.on('heartbeat', (beat: unknown) => leaked.push(beat));

    const beat = { api: 'polygonForex', success: false, msg: 'Connection refused' };
    const arrived = new Promise((resolve) => admin.once('heartbeat', resolve));
    t.ctx.realtime.toAdmins('heartbeat', beat);
    expect(await arrived).toEqual(beat);
    await new Promise((r) => setTimeout(r, 200));
    expect(leaked).toEqual([]);
  });
});

describe('realtime handshake', () => {
  it('refuses a socket opened by a page on another site, even with the visitor’s cookie', async () => {
    const cookie = await signIn(t.app, DEMO.client, undefined, '127.0.0.1');
    await expect(socketWith(cookie, 'https://evil.example')).rejects.toThrow(/Cross-site connection refused/);
    await expect(socketWith(undefined, 'null')).rejects.toThrow(/Cross-site connection refused/);
    // The app's own pages connect as before.
    const own = await socketWith(cookie, base);
    expect(own.connected).toBe(true);
  });
});
