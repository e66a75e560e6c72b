import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../src/db/client.ts';
import { scratchDatabase, startServerProcess, type ServerProcess } from './process.ts';

/**
 * Crash safety: the server is killed with SIGKILL (no shutdown code runs) while customers place and close orders and
 * staff adjust balances, then started again on the same database. Whatever was answered 200 before the kill is
 * there; nothing is half-applied; every wallet equals its ledger and holds exactly its open positions' margin; the
 * restarted risk engine follows every open position. Runs on the embedded database and, with TEST_DATABASE_URL,
 * on PostgreSQL.
 */

const base = process.env.TEST_DATABASE_URL;
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

class Client {
  cookie = '';
  constructor(private readonly url: string) {}
  async call(method: string, p: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
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
    let json: Record<string, unknown> = {};
    try {
      json = text ? JSON.parse(text) : {};
    } catch {
      json = {};
    }
    return { status: res.status, json };
  }
}

async function signedIn(url: string, email: string, password: string): Promise<Client> {
  const c = new Client(url);
  const r = await c.call('POST', '/auth/login', { email, password });
  if (r.status !== 200) throw new Error(`sign-in of ${email}: ${r.status} ${JSON.stringify(r.json)}`);
  return c;
}

const rows = async <T>(db: Database, q: ReturnType<typeof sql>): Promise<T[]> =>
  ((await db.db.execute(q)) as unknown as { rows: T[] }).rows;

describe('a server killed mid-flight', () => {
  it('loses nothing, doubles nothing and resumes every open position', { timeout: 240_000 }, async () => {
    let env: Record<string, string>;
    let open: () => Promise<Database>;
    if (base) {
      const scratch = await scratchDatabase(base);
      cleanups.push(() => scratch.drop());
      env = { DATABASE_URL: scratch.url, SEED_DEMO: 'true' };
      open = () => openDatabase({ url: scratch.url });
    } else {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crash-data-'));
      cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
      env = { DATA_DIR: dir };
      open = () => openDatabase({ dataDir: dir });
    }
    Object.assign(env, { DEMO_ACTIVITY: 'false', MARKET_HOURS: 'open', FEED_TICK_MS: '100', LOG_REQUESTS: 'none' });

    let server: ServerProcess = await startServerProcess(env);
    cleanups.push(() => void server.child.kill('SIGKILL'));
    const admin = await signedIn(server.url, 'admin@demo.test', 'Demo12345!');
    const traders: Array<{ client: Client; wallet: number }> = [];
    for (let i = 0; i < 8; i++) {
      const email = `crash${i}@example.test`;
      const made = await admin.call('POST', '/admin/customers', {
        fullName: `Crash Trader ${i}`,
        email,
        password: 'Password123!',
        isEmailVerified: true,
        isActive: true,
        phone: '+44 20 7946 0000',
        birthDate: '1990-01-01',
        country: 'United Kingdom',
        city: 'London',
        address: '1 Street',
        postalCode: 'N1 1AA',
      });
      expect(made.status, JSON.stringify(made.json)).toBe(201);
      const client = await signedIn(server.url, email, 'Password123!');
      const me = await client.call('GET', '/auth/user');
      traders.push({ client, wallet: (me.json.activeBalance as { id: number }).id });
    }

    // Load until the kill: each trader opens and closes EUR/USD positions; staff credit the wallets meanwhile.
    const placed = new Set<number>();
    const closed = new Set<number>();
    const credited = new Map<number, number>();
    let running = true;
    const trade = async (t: (typeof traders)[number]) => {
      while (running) {
        const p = await t.client
          .call('POST', '/dashboard/orders', {
            type: Math.random() < 0.5 ? 'buy' : 'sell',
            instrument: 'EUR_USD',
            amount: '1000',
          })
          .catch(() => null);
        if (!p || p.status !== 200) continue;
        const id = (p.json.order as { id: number }).id;
        placed.add(id);
        // Some positions stay open across the kill.
        if (Math.random() < 0.2) continue;
        const c = await t.client.call('POST', '/dashboard/orders/close', { orderId: id }).catch(() => null);
        if (c?.status === 200) closed.add(id);
      }
    };
    const credit = async () => {
      while (running) {
        const t = traders[Math.floor(Math.random() * traders.length)];
        const r = await admin
          .call('PUT', `/admin/balance/${t.wallet}`, { amount: '1', type: 'add', reason: 'crash test' })
          .catch(() => null);
        if (r?.status === 200) credited.set(t.wallet, (credited.get(t.wallet) ?? 0) + 1);
      }
    };
    const load = [...traders.map(trade), credit(), credit()];
    // Kill once a good amount of work has been answered, with requests certainly in flight.
    while (placed.size < 300) await new Promise((r) => setTimeout(r, 50));
    await server.kill();
    running = false;
    await Promise.allSettled(load);
    expect(placed.size).toBeGreaterThanOrEqual(300);

    // Started again on the same database: the risk engine reloads every open position.
    server = await startServerProcess(env);
    const admin2 = await signedIn(server.url, 'admin@demo.test', 'Demo12345!');
    const metrics = await fetch(`${server.url}/api/admin/metrics`, { headers: { cookie: admin2.cookie } }).then((r) =>
      r.text(),
    );
    const followed = Number(/^risk_engine_positions (\d+)$/m.exec(metrics)?.[1]);
    expect(await server.stop(), server.output()).toBe(0);

    const db = await open();
    try {
      const orders = await rows<{ id: number; closed: boolean }>(
        db,
        sql`select id, close_time is not null as closed from orders`,
      );
      const byId = new Map(orders.map((o) => [o.id, o.closed]));
      // Everything answered 200 is there, as answered.
      expect([...placed].filter((id) => !byId.has(id))).toEqual([]);
      expect([...closed].filter((id) => byId.get(id) !== true)).toEqual([]);
      expect(followed).toBe(orders.filter((o) => !o.closed).length);
      expect(followed).toBeGreaterThan(0);

      // Nothing half-applied: each wallet equals its ledger and holds exactly its open positions' margin.
      const off = await rows<{ id: number }>(
        db,
        sql`
        select b.id from balances b
         where b.balance <> coalesce((select sum(amount) from ledger_entries l where l.balance_id = b.id), 0)
            or b.margin <> coalesce((select sum(margin_used) from orders o where o.balance_id = b.id and o.close_time is null), 0)`,
      );
      expect(off).toEqual([]);
      // A close books its P/L once; an open position has booked none.
      const doubled = await rows<{ ref_id: number }>(
        db,
        sql`
        select ref_id from ledger_entries where ref_type = 'order' and kind = 'trade_pl' group by ref_id having count(*) > 1`,
      );
      expect(doubled).toEqual([]);
      const early = await rows<{ id: number }>(
        db,
        sql`
        select o.id from orders o where o.close_time is null
           and exists (select 1 from ledger_entries l where l.ref_type = 'order' and l.ref_id = o.id)`,
      );
      expect(early).toEqual([]);
      // Every credit answered 200 is in the ledger (one that committed just before the kill may be there unanswered).
      const credits = await rows<{ balance_id: number; n: number }>(
        db,
        sql`
        select balance_id, count(*)::int as n from ledger_entries where kind = 'adjustment' and note = 'crash test' group by balance_id`,
      );
      for (const [wallet, n] of credited)
        expect(credits.find((c) => c.balance_id === wallet)?.n ?? 0).toBeGreaterThanOrEqual(n);
    } finally {
      await db.close();
    }
  });
});
