import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import { TRADE_PL_EVENT, TRADE_PL_WATCH, type TradePlEvent } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { createTestApp, DEMO, signIn, type TestApp } from '../../../test/helpers.ts';
import { userProfiles, users } from '../../db/schema.ts';

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

const price = (bid: number) =>
  t.ctx.market.book.apply([
    { name: 'EUR_USD', bid, ask: bid + 0.0002, closeoutBid: bid, closeoutAsk: bid + 0.0002, time: Date.now() },
  ]);

async function openTrade(cookie: string): Promise<number> {
  price(1.1);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/dashboard/orders',
    headers: { cookie },
    payload: { type: 'buy', instrument: 'EUR_USD', amount: '10000' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().order.id as number;
}

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

const watch = (s: Socket, ids: unknown) =>
  s.timeout(2000).emitWithAck(TRADE_PL_WATCH, { ids }) as Promise<{ ok: boolean; ids: number[] }>;

/** The figure of one trade in the next event that carries it. */
const nextPl = (s: Socket, id: number) =>
  new Promise<string | null>((resolve) => {
    const listener = (e: TradePlEvent) => {
      if (!(String(id) in e.pl)) return;
      s.off(TRADE_PL_EVENT, listener);
      resolve(e.pl[String(id)]);
    };
    s.on(TRADE_PL_EVENT, listener);
  });

describe('live floating P/L of open trades for staff', () => {
  it("sends the risk engine's figure of the watched open trades, and again when the price moves", async () => {
    const id = await openTrade(await signIn(t.app, DEMO.client));
    price(1.105);
    await expect.poll(() => t.ctx.risk.positionPl(id)).toBeGreaterThan(0);
    const admin = await socketAs(DEMO.admin);
    const first = nextPl(admin, id);
    expect(await watch(admin, [id])).toEqual({ ok: true, ids: [id] });
    expect(Number(await first)).toBeCloseTo(t.ctx.risk.positionPl(id)!, 6);
    const moved = nextPl(admin, id);
    price(1.09);
    expect(Number(await moved)).toBeLessThan(0);
  });

  it("keeps to the list's scope: a manager gets their customers' trades only; other roles are not answered", async () => {
    const mine = await openTrade(await signIn(t.app, DEMO.client));
    const manager = await socketAs(DEMO.manager);
    expect(await watch(manager, [mine, 999_999])).toEqual({ ok: true, ids: [mine] });
    // Once the customer is no longer theirs, the manager's watch leaves the trade out.
    const [profile] = await t.ctx.db
      .select()
      .from(userProfiles)
      .innerJoin(users, eq(users.id, userProfiles.userId))
      .where(eq(users.email, DEMO.client));
    await t.ctx.db.update(userProfiles).set({ managerId: null }).where(eq(userProfiles.userId, profile.users.id));
    try {
      expect(await watch(manager, [mine])).toEqual({ ok: true, ids: [] });
    } finally {
      await t.ctx.db
        .update(userProfiles)
        .set({ managerId: profile.user_profiles.managerId })
        .where(eq(userProfiles.userId, profile.users.id));
    }
    expect(await watch(manager, 'all')).toEqual({ ok: false, ids: [] });
    expect(
      await watch(
        manager,
        Array.from({ length: 101 }, (_, i) => i + 1),
      ),
    ).toEqual({ ok: false, ids: [] });
    const client = await socketAs(DEMO.client);
    await expect(watch(client, [mine])).rejects.toThrow();
  });
});
