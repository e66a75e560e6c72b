import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  createTestApp,
  DEMO,
  newVerifiedCustomer,
  resetWalletTo,
  signIn,
  type TestApp,
} from '../../../test/helpers.ts';
import {
  balances,
  kycDocuments,
  ledgerEntries,
  notifications,
  pendingOrders,
  orders,
  riskLimits,
  userProfiles,
  users,
} from '../../db/schema.ts';
import { depthKit } from '../trading/depth-testing.ts';
import { closeOrder } from '../trading/close-order.ts';
import type { PendingService } from '../trading/pending/pending-service.ts';

let t: TestApp;
const kit = depthKit(() => t);
type Who = { cookie: string; userId: number; walletId: number; mode: string };
let a: Who;
let b: Who;
let admin: string;
let manager: string;
let managerId: number;
let adminId: number;

async function customer(prefix: string): Promise<Who> {
  const c = await newVerifiedCustomer(t, prefix);
  // Trading on the real wallet: the house's book (sign-up makes the demo one active).
  const [w] = await t.ctx.db
    .select()
    .from(balances)
    .where(and(eq(balances.userId, c.id), eq(balances.mode, 'real')));
  const walletId = w.id;
  await t.ctx.db.update(users).set({ activeBalanceId: walletId }).where(eq(users.id, c.id));
  await t.ctx.db.insert(kycDocuments).values({ userId: c.id, type: 'passport', status: 'approved' });
  const cookie = await signIn(t.app, c.email, c.password);
  await resetWalletTo(t, walletId, '100000');
  return { cookie, userId: c.id, walletId, mode: w.mode };
}

/** The open positions in the database, summed per instrument as the desk should show them. */
async function dbSums(mode: string) {
  const rows = await t.ctx.db
    .select()
    .from(orders)
    .where(and(isNull(orders.closeTime), mode === 'all' ? sql`true` : eq(orders.balanceMode, mode)));
  const by = new Map<
    string,
    { long: number; short: number; longValue: number; shortValue: number; pl: number; n: number }
  >();
  for (const o of rows) {
    const s = by.get(o.instrument) ?? { long: 0, short: 0, longValue: 0, shortValue: 0, pl: 0, n: 0 };
    const amount = Number(o.tradeAmount);
    if (o.type === 'buy') {
      s.long += amount;
      s.longValue += amount * Number(o.openRate);
    } else {
      s.short += amount;
      s.shortValue += amount * Number(o.openRate);
    }
    s.pl += t.ctx.risk.positionPl(o.id) ?? 0;
    s.n++;
    by.set(o.instrument, s);
  }
  return by;
}

const exposure = async (cookie: string, query = 'mode=all') => {
  const res = await kit.inject('GET', `/admin/risk/exposure?${query}`, cookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    data: Array<Record<string, number | string | null | number[]>>;
    totals: { positions: number };
  };
};

beforeAll(async () => {
  t = await createTestApp({ MARKET_FEED: 'false' });
  admin = await signIn(t.app, DEMO.admin);
  manager = await signIn(t.app, DEMO.manager);
  [{ id: managerId }] = await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO.manager));
  [{ id: adminId }] = await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO.admin));
  a = await customer('desk-a');
  b = await customer('desk-b');
  // The manager looks after A only.
  await t.ctx.db.update(userProfiles).set({ managerId }).where(eq(userProfiles.userId, a.userId));
  await t.ctx.db.update(userProfiles).set({ managerId: null }).where(eq(userProfiles.userId, b.userId));
  for (const w of [a, b]) kit.risk().engine.setWalletBalance(w.walletId, 100000);
  kit.price('EUR_USD', 1.1, 1.1002);
  kit.price('USD_JPY', 150, 150.02);
});
afterAll(() => t.close());

describe('exposure desk', () => {
  it('sums the open positions per instrument at the moment of reading, for admins and a manager’s share', async () => {
    expect([a.mode, b.mode]).toEqual(['real', 'real']);
    await kit.place(a.cookie, { type: 'buy', instrument: 'EUR_USD', amount: '100000' });
    await kit.place(a.cookie, { type: 'sell', instrument: 'EUR_USD', amount: '30000' });
    kit.price('EUR_USD', 1.101, 1.1012);
    await kit.place(b.cookie, { type: 'buy', instrument: 'EUR_USD', amount: '50000' });
    await kit.place(b.cookie, { type: 'sell', instrument: 'USD_JPY', amount: '20000' });
    kit.price('EUR_USD', 1.102, 1.1022);
    kit.price('USD_JPY', 149.5, 149.52);

    for (const mode of ['all', a.mode]) {
      const body = await exposure(admin, `mode=${mode}`);
      const sums = await dbSums(mode);
      expect(body.data.map((r) => r.instrument).sort()).toEqual([...sums.keys()].sort());
      for (const row of body.data) {
        const s = sums.get(row.instrument as string)!;
        expect(row.long_volume).toBeCloseTo(s.long, 6);
        expect(row.short_volume).toBeCloseTo(s.short, 6);
        expect(row.net_volume).toBeCloseTo(s.long - s.short, 6);
        expect(row.positions).toBe(s.n);
        if (s.long) expect(row.long_avg_price).toBeCloseTo(s.longValue / s.long, 8);
        else expect(row.long_avg_price).toBeNull();
        if (s.short) expect(row.short_avg_price).toBeCloseTo(s.shortValue / s.short, 8);
        expect(row.client_floating_pl).toBeCloseTo(s.pl, 1);
        expect(Array.isArray(row.net_history)).toBe(true);
      }
    }
    const eur = (await exposure(admin)).data.find((r) => r.instrument === 'EUR_USD')!;
    expect(eur).toMatchObject({ long_volume: 150000, short_volume: 30000, net_volume: 120000, positions: 3 });
    // The other mode holds none of these.
    const other = a.mode === 'real' ? 'demo' : 'real';
    expect((await exposure(admin, `mode=${other}`)).data.find((r) => r.instrument === 'EUR_USD')).toBeUndefined();
    // Category filter.
    const crypto = await exposure(admin, 'mode=all&category=crypto');
    expect(crypto.data).toEqual([]);

    // The manager sees A's share only.
    const mine = (await exposure(manager)).data.find((r) => r.instrument === 'EUR_USD')!;
    expect(mine).toMatchObject({ long_volume: 100000, short_volume: 30000, net_volume: 70000, positions: 2 });
    expect((await exposure(manager)).data.find((r) => r.instrument === 'USD_JPY')).toBeUndefined();

    // Top clients: by volume A (130,000 EUR) leads; by exposure A (net 70,000 EUR) leads B's 50,000 EUR − 20,000 USD.
    const byVolume = await kit.inject('GET', '/admin/risk/top-clients?by=volume&mode=all', admin);
    expect(byVolume.statusCode, byVolume.body).toBe(200);
    expect(byVolume.json().data.map((c: { user_id: number }) => c.user_id)).toEqual([a.userId, b.userId]);
    expect(byVolume.json().data[0]).toMatchObject({ positions: 2, email: expect.stringContaining('desk-a') });
    const byPl = await kit.inject('GET', '/admin/risk/top-clients?by=pl&mode=all', admin);
    const pls = byPl.json().data.map((c: { floating_pl: number }) => c.floating_pl);
    expect(pls).toEqual([...pls].sort((x: number, y: number) => y - x));
    const theirs = await kit.inject('GET', '/admin/risk/top-clients?by=exposure&mode=all', manager);
    expect(theirs.json().data.map((c: { user_id: number }) => c.user_id)).toEqual([a.userId]);

    // The house's realised P/L: after a close, the opposite of the client's trade P/L, spread and commission.
    const realised = await kit.inject('GET', '/admin/risk/realised?mode=all', admin);
    expect(realised.statusCode, realised.body).toBe(200);
    expect(realised.json()).toMatchObject({ currency: 'USD', today: { house_pl: expect.any(Number) } });
  });

  it('refuses the wrong roles and bad input', async () => {
    const agent = await signIn(t.app, DEMO.agent);
    for (const url of [
      '/admin/risk/exposure',
      '/admin/risk/top-clients',
      '/admin/risk/realised',
      '/admin/risk/limits',
    ]) {
      expect((await kit.inject('GET', url, agent)).statusCode, url).toBe(403);
      expect((await kit.inject('GET', url, a.cookie)).statusCode, url).toBe(403);
    }
    expect((await kit.inject('GET', '/admin/risk/limits', manager)).statusCode).toBe(403);
    expect((await kit.inject('PUT', '/admin/risk/limits', manager, { limits: [] })).statusCode).toBe(403);
    for (const url of [
      '/admin/risk/exposure?mode=everything',
      '/admin/risk/exposure?category=nope',
      '/admin/risk/top-clients?by=luck',
      '/admin/risk/top-clients?limit=500',
      '/admin/risk/realised?from=2026-02-01&to=2026-01-01',
      '/admin/risk/realised?from=yesterday',
      '/admin/risk/realised?from=2026-02-31',
      '/admin/risk/realised?from=2020-01-01&to=2026-01-01',
    ]) {
      const res = await kit.inject('GET', url, admin);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message, url).toBeTruthy();
    }
    for (const body of [
      { instrument: 'EUR_USD', maxNetVolume: 100, warnPercent: 0 },
      { instrument: 'EUR_USD', maxNetVolume: -1 },
      { instrument: 'NOPE_NOPE', maxNetVolume: 100 },
      { instrument: 'EUR_USD', category: 'forex', maxNetVolume: 100 },
      {
        limits: [
          { category: 'forex', maxNetVolume: 1 },
          { category: 'forex', maxNetVolume: 2 },
        ],
      },
      { limits: 'all' },
    ]) {
      const res = await kit.inject('PUT', '/admin/risk/limits', admin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBeTruthy();
    }
    expect(await t.ctx.db.select().from(riskLimits)).toEqual([]);
  });

  it('refuses the order that crosses a limit, accepts the one just under, and warns the admins once', async () => {
    const net = (await exposure(admin, `mode=${a.mode}`)).data.find((r) => r.instrument === 'EUR_USD')!
      .net_volume as number;
    expect(net).toBe(120000);
    const put = await kit.inject('PUT', '/admin/risk/limits', admin, {
      limits: [
        { instrument: 'EUR_USD', maxNetVolume: 150000, maxPositionVolume: 40000, warnPercent: 90 },
        { category: 'crypto', maxNetVolume: 5, warnPercent: 80 },
      ],
    });
    expect(put.statusCode, put.body).toBe(200);
    const got = await kit.inject('GET', '/admin/risk/limits', admin);
    expect(got.json().data).toEqual(
      expect.arrayContaining([
        { instrument: 'EUR_USD', category: null, maxNetVolume: 150000, maxPositionVolume: 40000, warnPercent: 90 },
        { instrument: null, category: 'crypto', maxNetVolume: 5, maxPositionVolume: null, warnPercent: 80 },
      ]),
    );
    expect(got.json().instruments).toEqual({
      EUR_USD: { maxNetVolume: 150000, maxPositionVolume: 40000, warnPercent: 90 },
    });
    expect(got.json().categories).toEqual({ crypto: { maxNetVolume: 5, maxPositionVolume: null, warnPercent: 80 } });
    const count = async () => (await t.ctx.db.select({ id: orders.id }).from(orders)).length;
    const before = await count();

    // One unit over the net limit: refused, nothing written.
    const over = await kit.inject('POST', '/dashboard/orders', b.cookie, {
      type: 'buy',
      instrument: 'EUR_USD',
      amount: '30001',
    });
    expect(over.statusCode, over.body).toBe(400);
    expect(over.json().message).toMatch(/limit of 150,000/);
    // Over the per-position limit.
    const big = await kit.inject('POST', '/dashboard/orders', b.cookie, {
      type: 'sell',
      instrument: 'EUR_USD',
      amount: '40001',
    });
    expect(big.statusCode).toBe(400);
    expect(big.json().message).toMatch(/per position/);
    expect(await count()).toBe(before);

    // Exactly up to the limit: accepted, and the admins are told once.
    await kit.place(b.cookie, { type: 'buy', instrument: 'EUR_USD', amount: '30000' });
    expect(await count()).toBe(before + 1);
    const warnings = async () =>
      t.ctx.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, adminId), eq(notifications.title, 'Exposure limit near')));
    await expect.poll(async () => (await warnings()).length).toBe(1);
    expect((await warnings())[0].description).toContain('EUR/USD');
    // At the limit, one more unit is refused; a reducing order passes.
    const one = await kit.inject('POST', '/dashboard/orders', a.cookie, {
      type: 'buy',
      instrument: 'EUR_USD',
      amount: '1',
    });
    expect(one.statusCode).toBe(400);
    await kit.place(a.cookie, { type: 'sell', instrument: 'EUR_USD', amount: '1000' });
    expect(await warnings()).toHaveLength(1);

    // A pending buy whose fill would cross the net limit (1,000 left) is cancelled with the reason when reached.
    const pending = await kit.inject('POST', '/dashboard/orders', b.cookie, {
      type: 'buy',
      orderType: 'limit',
      instrument: 'EUR_USD',
      amount: '2000',
      price: '1.1',
    });
    expect(pending.statusCode, pending.body).toBe(201);
    kit.price('EUR_USD', 1.0988, 1.099);
    await (t.ctx.pending as PendingService).idle();
    await kit.risk().idle();
    const [cancelled] = await t.ctx.db.select().from(pendingOrders).where(eq(pendingOrders.id, pending.json().id));
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.reason).toMatch(/limit of 150,000/);
    expect(await count()).toBe(before + 2);

    // A limit removed: the order passes again.
    const removed = await kit.inject('PUT', '/admin/risk/limits', admin, {
      instrument: 'EUR_USD',
      maxNetVolume: null,
      maxPositionVolume: null,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().data).toHaveLength(1);
    await kit.place(a.cookie, { type: 'buy', instrument: 'EUR_USD', amount: '5000' });

    // The set keyed by instrument and category replaces the whole set; a bare list too; unknown names are a 400.
    const keyed = await kit.inject('PUT', '/admin/risk/limits', admin, {
      instruments: { GBP_USD: { maxNetVolume: 1000 } },
      categories: { stock: { maxPositionVolume: 10, warnPercent: 50 } },
    });
    expect(keyed.statusCode, keyed.body).toBe(200);
    expect(keyed.json().instruments).toEqual({
      GBP_USD: { maxNetVolume: 1000, maxPositionVolume: null, warnPercent: 80 },
    });
    expect(keyed.json().categories).toEqual({ stock: { maxNetVolume: null, maxPositionVolume: 10, warnPercent: 50 } });
    for (const body of [{ instruments: { NOPE_NOPE: { maxNetVolume: 1 } } }, { instruments: {}, everything: true }]) {
      const res = await kit.inject('PUT', '/admin/risk/limits', admin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await t.ctx.db.select().from(riskLimits)).map((r) => r.target).sort()).toEqual(['GBP_USD', 'stock']);
    const bare = await kit.inject('PUT', '/admin/risk/limits', admin, []);
    expect(bare.statusCode, bare.body).toBe(200);
    expect(bare.json()).toMatchObject({ data: [], instruments: {}, categories: {}, message: 'Limits saved' });

    const open = await t.ctx.db.select({ id: orders.id }).from(orders).where(isNull(orders.closeTime));
    for (const o of open) await closeOrder(t.ctx, { orderId: o.id, reason: 'admin' });
    await kit.risk().idle();
    expect((await exposure(admin)).data).toEqual([]);

    // The house's realised P/L today: the opposite of the clients' trade P/L, spread, commission and swap entries.
    const [{ clients }] = await t.ctx.db
      .select({ clients: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)::text` })
      .from(ledgerEntries)
      .innerJoin(balances, eq(balances.id, ledgerEntries.balanceId))
      .where(
        and(
          eq(balances.mode, 'real'),
          inArray(ledgerEntries.kind, ['trade_pl', 'spread', 'commission', 'swap']),
          sql`${ledgerEntries.createdAt} >= date_trunc('day', now() at time zone 'utc') at time zone 'utc'`,
        ),
      );
    expect(Number(clients)).not.toBe(0);
    const realised = await kit.inject('GET', '/admin/risk/realised', admin);
    expect(realised.statusCode, realised.body).toBe(200);
    expect(realised.json().today.house_pl).toBeCloseTo(-Number(clients), 2);
    expect(realised.json().period.house_pl).toBeCloseTo(-Number(clients), 2);
    // The manager's share: A's closes only.
    const theirs = await kit.inject('GET', '/admin/risk/realised', manager);
    const [{ mine }] = await t.ctx.db
      .select({ mine: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)::text` })
      .from(ledgerEntries)
      .where(
        and(
          eq(ledgerEntries.balanceId, a.walletId),
          inArray(ledgerEntries.kind, ['trade_pl', 'spread', 'commission', 'swap']),
        ),
      );
    expect(theirs.json().today.house_pl).toBeCloseTo(-Number(mine), 2);
    await kit.consistent(a.walletId);
    await kit.consistent(b.walletId);
  });
});
