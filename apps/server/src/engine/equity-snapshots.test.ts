import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { createTestApp, newVerifiedCustomer, type TestApp } from '../../test/helpers.ts';
import { balances } from '../db/schema.ts';
import { EquitySnapshots, SNAPSHOT_BATCH, SNAPSHOT_MAX_ROWS } from './equity-snapshots.ts';
import { RiskEngine } from './risk-engine.ts';

/** The leader's floating P/L in the database, which the lists sort and filter equity by. */
let t: TestApp;
const wallets: Array<{ real: number; demo: number }> = [];
const stored = async (id: number) =>
  (await t.ctx.db.select({ pl: balances.floatingPl }).from(balances).where(eq(balances.id, id)))[0].pl;

beforeAll(async () => {
  t = await createTestApp();
  for (let i = 0; i < 2; i++) {
    const c = await newVerifiedCustomer(t, 'snap');
    const rows = await t.ctx.db.select().from(balances).where(eq(balances.userId, c.id));
    wallets.push({ real: rows.find((w) => w.main)!.id, demo: rows.find((w) => w.mode === 'demo')!.id });
  }
});
afterAll(async () => t.close());

/** An engine of its own holding one EUR/USD buy of 10,000 on each given wallet, opened at 1.1. */
function engineWith(...walletIds: number[]): RiskEngine {
  const engine = new RiskEngine();
  walletIds.forEach((walletId, i) => {
    engine.upsertWallet(walletId, { balance: 1000, stopoutPercent: null });
    engine.addPosition({
      orderId: 1 + i,
      walletId,
      instrument: 0,
      side: 'buy',
      openRate: 1.1,
      amount: 10_000,
      spread: 0,
      convSlot: 0,
      margin: 100,
      takeProfit: null,
      stopLoss: null,
    });
  });
  return engine;
}

describe('equity snapshots', () => {
  it('writes the main real wallets whose P/L moved, in batches, and only those', async () => {
    const { real, demo } = wallets[0];
    const engine = engineWith(real, demo);
    const snapshots = new EquitySnapshots(engine, () => t.ctx);
    engine.tick(0, 1.12, 1.1201);
    // The first pass writes the main wallet (P/L 200); the demo wallet is never written (no list reads it).
    expect(await snapshots.pass()).toMatchObject({ changed: 2, written: 1, statements: 1 });
    expect(await stored(real)).toBe('200.00000000');
    expect(await stored(demo)).toBe('0.00000000');
    // Nothing moved: nothing to write.
    expect(await snapshots.pass()).toMatchObject({ changed: 0, written: 0, statements: 0 });
    // Half a dollar on 1,200 of equity: below what a sort tells apart.
    engine.tick(0, 1.12005, 1.1201);
    expect(await snapshots.pass()).toMatchObject({ written: 0 });
    expect(await stored(real)).toBe('200.00000000');
    engine.tick(0, 1.09, 1.0901);
    expect(await snapshots.pass()).toMatchObject({ changed: 1, written: 1 });
    expect(await stored(real)).toBe('-100.00000000');
    // The position closed: the wallet's P/L is 0 again.
    engine.removePosition(1);
    expect(await snapshots.pass()).toMatchObject({ written: 1 });
    expect(await stored(real)).toBe('0.00000000');
  });

  it('writes nothing unless this instance leads, and on becoming leader clears what the engine no longer holds', async () => {
    const [a, b] = wallets;
    await t.ctx.db.update(balances).set({ floatingPl: '42' }).where(eq(balances.id, b.real));
    const engine = engineWith(a.real);
    engine.tick(0, 1.13, 1.1301);
    let leads = false;
    const ctx = () => ({
      ...t.ctx,
      cluster: { ...t.ctx.cluster, leadership: { ...t.ctx.cluster.leadership, isLeader: leads } },
    });
    const snapshots = new EquitySnapshots(engine, ctx);
    expect(await snapshots.pass()).toMatchObject({ written: 0, statements: 0 });
    expect(await stored(b.real)).toBe('42.00000000');
    leads = true;
    await snapshots.pass();
    expect(await stored(a.real)).toBe('300.00000000');
    expect(await stored(b.real)).toBe('0.00000000');
  });

  it('writes at most SNAPSHOT_MAX_ROWS wallets a pass, the rest on the next passes', async () => {
    // Wallet ids no row has: every pass finds them moved again, so each pass is capped.
    const engine = engineWith(...Array.from({ length: SNAPSHOT_MAX_ROWS + 100 }, (_, i) => 900_000 + i));
    engine.tick(0, 1.12, 1.1201);
    const snapshots = new EquitySnapshots(engine, () => t.ctx);
    // (The first pass of a new leader also clears what the database held for wallets the engine does not follow.)
    await snapshots.pass();
    const pass = await snapshots.pass();
    expect(pass).toMatchObject({ changed: SNAPSHOT_MAX_ROWS + 100, written: 0 });
    expect(pass.statements).toBe(Math.ceil(SNAPSHOT_MAX_ROWS / SNAPSHOT_BATCH));
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    'skips a wallet an order holds locked, without waiting, and writes it next pass',
    async () => {
      const { real } = wallets[1];
      const engine = engineWith(real);
      engine.tick(0, 1.105, 1.1051);
      const snapshots = new EquitySnapshots(engine, () => t.ctx);
      const holder = new pg.Client({ connectionString: t.ctx.config.DATABASE_URL });
      await holder.connect();
      try {
        await holder.query('begin');
        await holder.query('select id from balances where id = $1 for update', [real]);
        const started = Date.now();
        expect(await snapshots.pass()).toMatchObject({ changed: 1, written: 0 });
        expect(Date.now() - started).toBeLessThan(2000);
        await holder.query('commit');
      } finally {
        await holder.end();
      }
      expect(await snapshots.pass()).toMatchObject({ written: 1 });
      expect(await stored(real)).toBe('50.00000000');
    },
  );
});
