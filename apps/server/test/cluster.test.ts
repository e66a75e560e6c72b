import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import { scratchDatabase, startServerProcess, type ServerProcess } from './process.ts';

/**
 * Two instances on one PostgreSQL and one Redis, as `deploy/` runs them: a client connected to B gets the prices
 * (fed on A, the leader) and its notifications; an order placed on B is closed by the risk engine on A at its stop;
 * when A is killed (SIGKILL) B takes over within seconds and closes a position whose stop is crossed after the kill.
 * Needs TEST_DATABASE_URL (and Redis at REDIS_URL, default 127.0.0.1:6379); skipped on the embedded database.
 */
const base = process.env.TEST_DATABASE_URL;
const redis = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

type Json = Record<string, unknown>;
class Client {
  cookie = '';
  constructor(public url: string) {}
  async call(method: string, p: string, body?: unknown): Promise<{ status: number; json: Json }> {
    const res = await fetch(`${this.url}/api${p}`, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(this.cookie ? { cookie: this.cookie } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const set = res.headers.getSetCookie().find((c) => c.startsWith('sid='));
    if (set) this.cookie = set.split(';')[0];
    const text = await res.text();
    return { status: res.status, json: text ? (JSON.parse(text) as Json) : {} };
  }
  async signIn(email: string, password = 'Demo12345!') {
    const r = await this.call('POST', '/auth/login', { email, password });
    if (r.status !== 200) throw new Error(`sign-in ${email}: ${r.status}`);
    return this;
  }
}

const until = async (what: string, check: () => boolean | Promise<boolean>, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

const leads = async (s: ServerProcess) =>
  ((await fetch(`${s.url}/readyz`).then((r) => r.json())) as { checks: { leader?: string } }).checks.leader === 'yes';

describe.skipIf(!base)('two instances on PostgreSQL and Redis', () => {
  let a: ServerProcess;
  let b: ServerProcess;
  const cleanups: Array<() => Promise<void> | void> = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    const db = await scratchDatabase(base!);
    cleanups.push(() => db.drop());
    env = {
      DATABASE_URL: db.url,
      REDIS_URL: redis,
      CLUSTER_NAME: `t${randomBytes(4).toString('hex')}`,
      SEED_DEMO: 'true',
      DEMO_ACTIVITY: 'false',
      MARKET_HOURS: 'open',
      FEED_TICK_MS: '100',
      LOG_REQUESTS: 'none',
    };
    a = await startServerProcess(env);
    cleanups.push(() => void a.child.kill('SIGKILL'));
    await until('A to lead', () => leads(a));
    b = await startServerProcess(env);
    cleanups.push(() => void b.child.kill('SIGKILL'));
  }, 120_000);
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it('counts request rate limits across instances', async () => {
    // 30 a minute per address on the public auth endpoints, wherever the requests land.
    const send = (s: ServerProcess) =>
      fetch(`${s.url}/api/forgot-password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'nobody@example.test' }),
      }).then((r) => r.status);
    const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) => send(i % 2 ? a : b)));
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(30);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(10);
  });

  it('counts failed sign-ins of an account across instances', async () => {
    const wrong = (s: ServerProcess) =>
      fetch(`${s.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'affiliate@demo.test', password: 'wrong-password' }),
      }).then((r) => r.status);
    // Five wrong passwords, split between the instances, lock the account on both.
    for (let i = 0; i < 5; i++) expect(await wrong(i % 2 ? a : b)).toBe(401);
    expect(await wrong(a)).toBe(429);
    expect(await wrong(b)).toBe(429);
  });

  it("ends a customer's sessions on every instance at once when staff deactivate them on another", async () => {
    const admin = await new Client(a.url).signIn('admin@demo.test');
    const profile = {
      fullName: 'Cluster Customer',
      email: 'cluster@example.test',
      password: 'Password123!',
      isEmailVerified: true,
      isActive: true,
      phone: '+44 20 7946 0000',
      birthDate: '1990-01-01',
      country: 'United Kingdom',
      city: 'London',
      address: '1 Street',
      postalCode: 'N1 1AA',
    };
    const made = await admin.call('POST', '/admin/customers', profile);
    expect(made.status, JSON.stringify(made.json)).toBe(201);
    const customer = await new Client(b.url).signIn(profile.email, profile.password);
    // Read twice on B: the session is now in B's short-lived cache.
    expect((await customer.call('GET', '/auth/user')).status).toBe(200);
    expect((await customer.call('GET', '/auth/user')).status).toBe(200);
    const id = (made.json.user as { id: number } | undefined)?.id ?? (made.json.id as number);
    expect(
      (
        await admin.call('PUT', `/admin/customers/${id}`, {
          ...profile,
          password: '',
          isActive: false,
          managerId: -2,
          pricingTableId: -2,
        })
      ).status,
    ).toBe(200);
    // Well inside the cache's 5 s: B was told.
    await until(
      'B to refuse the deactivated customer',
      async () => (await customer.call('GET', '/auth/user')).status === 401,
      1500,
    );
  });

  it('serves prices, notifications and stops across instances, and survives the leader', {
    timeout: 120_000,
  }, async () => {
    expect(await leads(b)).toBe(false);
    const client = await new Client(b.url).signIn('client@demo.test');
    const adminA = await new Client(a.url).signIn('admin@demo.test');
    const adminB = await new Client(b.url).signIn('admin@demo.test');

    // A websocket client on B, signed in as the demo client.
    const socket: Socket = connect(b.url, {
      transports: ['websocket'],
      extraHeaders: { cookie: client.cookie },
      forceNew: true,
      reconnection: false,
    });
    cleanups.push(() => void socket.disconnect());
    const prices: Array<Array<{ name: string; bids: number }>> = [];
    const notices: Json[] = [];
    socket.on('priceUpdate', (batch: Array<{ name: string; bids: number }>) => prices.push(batch));
    const me = await client.call('GET', '/auth/user');
    socket.on(`user:${(me.json.user as { id: number }).id}`, (n: Json) => notices.push(n));
    await until('prices fed on A to reach a client on B', () => prices.length >= 3);

    // An order placed on B with a stop-loss: A's engine closes it when the stop is crossed.
    const eur = (await adminA.call('GET', '/admin/instruments/api/forex?search=EUR_USD')).json.data as Json[];
    const instrument = eur.find((i) => i.name === 'EUR_USD')!;
    const setPrice = (admin: Client, bid: number) =>
      admin.call('PUT', `/admin/instruments/${instrument.id}`, {
        name: instrument.name,
        base: instrument.base,
        quote: instrument.quote,
        category: 'forex',
        tradingview: instrument.tradingview,
        alias: instrument.alias,
        leverage: instrument.leverage,
        tradable: true,
        swap: Number(instrument.swap),
        bids: bid,
        asks: bid + 0.0002,
      });
    prices.length = 0;
    expect((await setPrice(adminA, 1.1)).status).toBe(200);
    await until('B to see the new price', async () =>
      prices.some((batch) => batch.some((q) => q.name === 'EUR_USD' && Math.abs(q.bids - 1.1) < 0.01)),
    );
    const placed = await client.call('POST', '/dashboard/orders', {
      type: 'buy',
      instrument: 'EUR_USD',
      amount: '1000',
      loss: 1.09,
    });
    expect(placed.status, JSON.stringify(placed.json)).toBe(200);
    const first = (placed.json.order as { id: number }).id;
    expect((await setPrice(adminA, 1.05)).status).toBe(200);
    const closedReason = async (id: number) => {
      const orders = (await client.call('GET', '/dashboard/orders?status=closed&limit=50')).json.data as Array<{
        id: number;
        close_reason?: string;
      }>;
      return orders.find((o) => o.id === id)?.close_reason;
    };
    await until(
      'A to close the order placed on B at its stop',
      async () => (await closedReason(first)) === 'stop_loss',
    );
    await until('the client on B to be told', () => notices.some((n) => JSON.stringify(n).includes(`#${first}`)));

    // Another position on B; then the leader dies and its stop is crossed after the kill. Only prices sent after
    // the change count: the batches of the first 1.1 would otherwise pass for it while B still quotes 1.05.
    prices.length = 0;
    expect((await setPrice(adminA, 1.1)).status).toBe(200);
    await until('B to see the price back up', async () =>
      prices.some((batch) => batch.some((q) => q.name === 'EUR_USD' && Math.abs(q.bids - 1.1) < 0.01)),
    );
    const second = await client.call('POST', '/dashboard/orders', {
      type: 'buy',
      instrument: 'EUR_USD',
      amount: '1000',
      loss: 1.09,
    });
    expect(second.status, JSON.stringify(second.json)).toBe(200);
    const secondId = (second.json.order as { id: number }).id;
    const killedAt = Date.now();
    await a.kill();
    expect((await setPrice(adminB, 1.05)).status).toBe(200);
    await until('B to lead', () => leads(b), 10_000);
    expect(Date.now() - killedAt).toBeLessThan(5_000 + 2_000);
    try {
      await until(
        'B to close the position whose stop was crossed after the kill',
        async () => (await closedReason(secondId)) === 'stop_loss',
      );
    } catch (err) {
      const orders = (await client.call('GET', '/dashboard/orders?limit=5')).json.data;
      throw new Error(
        `${(err as Error).message}\norders: ${JSON.stringify(orders)}\nlast prices: ${JSON.stringify(prices.slice(-3).map((b) => b.find((q) => q.name === 'EUR_USD')))}\nB said:\n${b.output().slice(-3000)}`,
      );
    }
    // Closed once: its P/L is in the wallet's history once.
    const statement = (await client.call('GET', '/statements/history?limit=100')).json.data as Array<{ id: number }>;
    expect(statement.filter((s) => s.id === secondId)).toHaveLength(1);
    // B now feeds prices itself.
    const before = prices.length;
    await until('prices from B after the takeover', () => prices.length > before + 3);
  });
});
