import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { dec } from '@platform/domain';
import { createTestApp, DEMO, newVerifiedCustomer, signIn, type TestApp } from '../../../test/helpers.ts';
import { balances, ledgerEntries, orders, rolloverLanes, rolloverRuns, swapCharges } from '../../db/schema.ts';
import { putSetting, invalidateSettingsCache } from '../settings/service.ts';
import { cutoffOf } from './clock.ts';
import { rolloverKit } from './rollover-testing.ts';
import { rowsOf, runDueRollovers } from './service.ts';
import { DONE, ROLLOVER_OPEN_BATCH, type BatchRow } from './statements.ts';

/**
 * The scheduled rollover with an injected clock: the latest due date, nothing twice, dates missed while no instance
 * ran caught up, and a run cut short by a restart going on where it stopped — over 300 positions on 6 wallets, so a
 * run takes several batches.
 */
let t: TestApp;
const kit = rolloverKit(() => t);
let walletIds: number[] = [];
let orderIds: number[] = [];
const WALLETS = 6;
const PER_WALLET = 50;

beforeAll(async () => {
  t = await createTestApp();
  await kit.quietSchedule();
  // An instrument of its own, so the demo data's positions (no swap on the seeded instruments) stay out of the counts.
  const admin = await signIn(t.app, DEMO.admin);
  const tst = await kit.addInstrument(admin, 'TST_USD', '-3.6', '1.8');
  const who = await newVerifiedCustomer(t, 'schedule');
  ({ walletIds, orderIds } = await kit.insertPositions(
    who.id,
    tst,
    WALLETS,
    PER_WALLET,
    new Date('2026-10-01T12:00:00Z'),
  ));
});
afterAll(async () => t.close());

const LONG_DAY = '-0.11'; // 1,000 × 1.1 × −3.6 % ÷ 360
const SHORT_DAY = '0.055';

async function chargesOf(date: string) {
  return t.ctx.db
    .select()
    .from(swapCharges)
    .where(and(eq(swapCharges.tradingDate, date), inArray(swapCharges.orderId, orderIds)));
}

async function allConsistent() {
  for (const id of walletIds) {
    const [{ ledger }] = await t.ctx.db
      .select({ ledger: sql<string>`sum(${ledgerEntries.amount})::text` })
      .from(ledgerEntries)
      .where(eq(ledgerEntries.balanceId, id));
    const [w] = await t.ctx.db.select().from(balances).where(eq(balances.id, id));
    expect(dec(w.balance).toString(), `wallet ${id}: balance = Σ ledger`).toBe(dec(ledger).toString());
    expect(kit.risk().engine.walletState(id)?.balance, `wallet ${id}: the engine's balance`).toBeCloseTo(
      Number(w.balance),
      8,
    );
  }
}

describe('scheduled rollover', () => {
  it('runs the latest due date once, not before its time', async () => {
    // 16:59 New York on Monday 5 October: Sunday is due (forex charges no weekend), not Monday.
    const early = await runDueRollovers(t.ctx, { now: new Date('2026-10-05T20:59:00Z'), batchSize: 200 });
    expect(early.map((r) => r.tradingDate)).toEqual(['2026-10-04']);
    expect(early[0].charged).toBe(0);
    const [run] = await runDueRollovers(t.ctx, { now: new Date('2026-10-05T21:00:30Z'), batchSize: 200 });
    expect(run).toMatchObject({ tradingDate: '2026-10-05', charged: WALLETS * PER_WALLET, finished: true });
    expect(run.cutoff.toISOString()).toBe('2026-10-05T21:00:00.000Z');
    const charges = await chargesOf('2026-10-05');
    expect(charges).toHaveLength(WALLETS * PER_WALLET);
    expect(new Set(charges.map((c) => dec(c.amount).toString()))).toEqual(new Set([LONG_DAY, SHORT_DAY]));
    // The same minute again, or the next: nothing more.
    expect(await runDueRollovers(t.ctx, { now: new Date('2026-10-05T21:01:30Z') })).toEqual([]);
    await allConsistent();
  });

  it('catches up the dates no instance ran, Wednesday triple', async () => {
    const runs = await runDueRollovers(t.ctx, { now: new Date('2026-10-08T21:30:00Z'), batchSize: 200 });
    expect(runs.map((r) => [r.tradingDate, r.charged])).toEqual([
      ['2026-10-06', 300],
      ['2026-10-07', 300],
      ['2026-10-08', 300],
    ]);
    const wednesday = await chargesOf('2026-10-07');
    expect(wednesday.every((c) => c.days === 3)).toBe(true);
    const [o] = await t.ctx.db.select().from(orders).where(eq(orders.id, orderIds[0]));
    // Monday, Tuesday, Wednesday (3), Thursday: six days of a long.
    expect(dec(o.swap).toString()).toBe(dec(LONG_DAY).times(6).toString());
    await kit.swapAddsUp(orderIds[0]);
    await allConsistent();
  });

  it('goes on where a run cut short stopped, charging each position once', async () => {
    const date = '2026-10-09';
    const cutoff = cutoffOf(date, '17:00', 'America/New_York');
    const ids = [...walletIds].sort((a, b) => a - b);
    await t.ctx.db.insert(rolloverRuns).values({ tradingDate: date, cutoff });
    // Two lanes (the first up to the third wallet), one batch of the first (two wallets), then the instance dies.
    await t.ctx.db.insert(rolloverLanes).values([
      { tradingDate: date, lane: 0, lastBalanceId: 0, endBalanceId: ids[2] },
      { tradingDate: date, lane: 1, lastBalanceId: ids[2], endBalanceId: DONE },
    ]);
    // Lane 0's batch up to the second wallet, as an instance runs it.
    const laneBatch = () =>
      rowsOf<BatchRow>(t.ctx, ROLLOVER_OPEN_BATCH, [
        date,
        200,
        [1, 1, 1, 1, 1],
        'America/New_York',
        '17:00',
        null,
        0,
        ids[1],
        cutoff,
        0,
      ]);
    const [first] = await laneBatch();
    expect(first).toMatchObject({ running: 1, charged: 100 });
    const lanes = await t.ctx.db
      .select()
      .from(rolloverLanes)
      .where(eq(rolloverLanes.tradingDate, date))
      .orderBy(rolloverLanes.lane);
    expect(lanes.map((l) => [l.lastBalanceId, l.charged])).toEqual([
      [ids[1], 100],
      [ids[2], 0],
    ]);
    // A batch whose progress moved on meanwhile (another instance took it) writes nothing.
    const [stale] = await laneBatch();
    expect(stale).toMatchObject({ running: 0, charged: 0, wallets: [] });
    // The engine was not told of that batch: a restart reloads it from the database.
    await kit.risk().takeOver();
    const [rest] = await runDueRollovers(t.ctx, { now: new Date('2026-10-09T21:30:00Z'), batchSize: 200 });
    expect(rest).toMatchObject({ tradingDate: date, charged: 200, chargedTotal: 300, finished: true });
    expect(await chargesOf(date)).toHaveLength(300);
    // The lanes were folded into the run.
    expect(await t.ctx.db.select().from(rolloverLanes).where(eq(rolloverLanes.tradingDate, date))).toEqual([]);
    const entries = await t.ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.kind, 'swap'), inArray(ledgerEntries.refId, orderIds)));
    expect(entries[0].n).toBe(300 * 5);
    await allConsistent();
  });

  it('follows the rollover time of the site settings', async () => {
    await putSetting(t.ctx.db, 'rollover', { value1: '22:00', value2: 'UTC' });
    invalidateSettingsCache();
    try {
      // 21:30 UTC on Monday 12 October is before 22:00 UTC: Sunday is due (nothing to charge), not Monday.
      const before = await runDueRollovers(t.ctx, { now: new Date('2026-10-12T21:30:00Z'), batchSize: 200 });
      expect(before.map((r) => r.tradingDate)).toEqual(['2026-10-10', '2026-10-11']);
      const [monday] = await runDueRollovers(t.ctx, { now: new Date('2026-10-12T22:00:00Z'), batchSize: 200 });
      expect(monday).toMatchObject({ tradingDate: '2026-10-12', charged: 300 });
      expect(monday.cutoff.toISOString()).toBe('2026-10-12T22:00:00.000Z');
    } finally {
      await putSetting(t.ctx.db, 'rollover', { value1: '17:00', value2: 'America/New_York' });
      invalidateSettingsCache();
    }
    await allConsistent();
  });
});
