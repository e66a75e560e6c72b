import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { dec } from '@platform/domain';
import { createTestApp, DEMO, signIn, type TestApp } from '../../../test/helpers.ts';
import {
  balances,
  ledgerEntries,
  orders,
  pricingPlans,
  rolloverLanes,
  rolloverRuns,
  swapCharges,
} from '../../db/schema.ts';
import { rolloverKit } from './rollover-testing.ts';
import { rowsOf, runRolloverNow } from './service.ts';
import { DONE, START_LANES } from './statements.ts';

/**
 * The rollover by hand (runRolloverNow, what "run rollover now" calls): every position open now is charged or
 * credited once for the trading date, through the ledger, in the wallet's currency, with the position as cause.
 * Dates: Tuesday 2026-10-13 (a plain day), Wednesday 2026-10-14 (forex's triple day), Saturday 2026-10-17.
 */
let t: TestApp;
let admin: string;
const kit = rolloverKit(() => t);
const TUESDAY = '2026-10-13';
const WEDNESDAY = '2026-10-14';
const SATURDAY = '2026-10-17';

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, DEMO.admin);
  await kit.quietSchedule();
  // MT5's sign: a long EUR/USD pays 3.6 % a year, a short earns 1.8 %; bitcoin longs pay 18 %.
  await kit.setSwap('EUR_USD', '-3.6', '1.8');
  await kit.setSwap('BTC_USD', '-18', '-9');
  kit.price('EUR_USD', 1.1, 1.1002);
  kit.price('BTC_USD', 90000, 90010);
});
afterAll(async () => t.close());

const run = (date: string) => runRolloverNow(t.ctx, date, { actorId: null });

/** The date's charges of positions other than `ids` (the demo data's and earlier tests'). */
async function othersCharged(date: string, ids: number[]): Promise<number> {
  const all = await t.ctx.db.select().from(swapCharges).where(eq(swapCharges.tradingDate, date));
  return all.filter((c) => !ids.includes(c.orderId)).length;
}

describe('rollover', () => {
  it('charges a long and credits a short once, through the ledger, with the position as cause', async () => {
    const a = await kit.trader('swaplong');
    const buy = await kit.place(a.cookie, { type: 'buy', instrument: 'EUR_USD', amount: '10000' });
    const sell = await kit.place(a.cookie, { type: 'sell', instrument: 'EUR_USD', amount: '20000' });
    const { result } = await run(TUESDAY);
    expect(result.finished).toBe(true);
    expect(result.charged).toBeGreaterThanOrEqual(2);

    const longSwap = kit.expected(buy, '-3.6', 1);
    const shortSwap = kit.expected(sell, '1.8', 1);
    expect(longSwap.isNegative()).toBe(true);
    expect(shortSwap.isPositive()).toBe(true);
    expect(longSwap.toString()).toBe(dec('10000').times(buy.open_rate).times('-0.0001').toString());
    const c = await kit.charge(buy.id, TUESDAY);
    expect(c).toMatchObject({ kind: 'swap', days: 1, currency: 'USD' });
    expect(dec(c.amount).toString()).toBe(longSwap.toString());
    expect(dec((await kit.charge(sell.id, TUESDAY)).amount).toString()).toBe(shortSwap.toString());

    const [entry] = await kit.swapEntries(buy.id);
    expect(entry).toMatchObject({ balanceId: a.walletId, kind: 'swap', refType: 'order', refId: buy.id });
    expect(entry.note).toBe(`Swap on EUR_USD for ${TUESDAY}`);
    expect((await kit.swapAddsUp(buy.id)).toString()).toBe(longSwap.toString());
    expect((await kit.swapAddsUp(sell.id)).toString()).toBe(shortSwap.toString());
    // balance = Σ ledger, and the risk engine holds the new balance.
    const w = await kit.consistent(a.walletId);
    expect(dec(w.balance).toString()).toBe(dec(10000).plus(longSwap).plus(shortSwap).toString());

    // The position answers its swap to the client.
    const open = (await kit.inject('GET', '/dashboard/orders?status=open', a.cookie)).json().data;
    expect(dec(open.find((o: { id: number }) => o.id === buy.id).swap).toString()).toBe(longSwap.toString());
  });

  it('charges nothing on a re-run of the same date', async () => {
    const a = await kit.trader('swaprerun');
    const buy = await kit.place(a.cookie, { type: 'buy', instrument: 'EUR_USD', amount: '10000' });
    expect((await run(TUESDAY)).result.charged).toBe(1);
    const before = await kit.consistent(a.walletId);
    const again = await run(TUESDAY);
    expect(again.result.charged).toBe(0);
    expect((await kit.consistent(a.walletId)).balance).toBe(before.balance);
    expect(await kit.charges(buy.id)).toHaveLength(1);
    expect(await kit.swapEntries(buy.id)).toHaveLength(1);
  });

  it('charges three days on the triple-swap day, and a closed position no more', async () => {
    const a = await kit.trader('swaptriple');
    const buy = await kit.place(a.cookie, { type: 'buy', instrument: 'EUR_USD', amount: '10000' });
    const gone = await kit.place(a.cookie, { type: 'buy', instrument: 'EUR_USD', amount: '10000' });
    expect((await kit.close(a.cookie, gone.id)).statusCode).toBe(200);
    await run(WEDNESDAY);
    const c = await kit.charge(buy.id, WEDNESDAY);
    expect(c.days).toBe(3);
    expect(dec(c.amount).toString()).toBe(kit.expected(buy, '-3.6', 3).toString());
    expect(await kit.charges(gone.id)).toEqual([]);
    expect(await kit.swapAddsUp(buy.id)).toEqual(kit.expected(buy, '-3.6', 3));
    await kit.consistent(a.walletId);
  });

  it('charges crypto on a Saturday and leaves forex alone', async () => {
    const a = await kit.trader('swapcrypto');
    const btc = await kit.place(a.cookie, { type: 'buy', instrument: 'BTC_USD', amount: '0.5' });
    const eur = await kit.place(a.cookie, { type: 'buy', instrument: 'EUR_USD', amount: '10000' });
    await run(SATURDAY);
    const c = await kit.charge(btc.id, SATURDAY);
    expect(c.days).toBe(1);
    expect(dec(c.amount).toString()).toBe(kit.expected(btc, '-18', 1).toString());
    expect(await kit.charges(eur.id)).toEqual([]);
    await kit.consistent(a.walletId);
  });

  it('charges a swap-free plan no swap, then its daily fee once the free days are over', async () => {
    const made = await kit.inject('POST', '/admin/pricing', admin, {
      name: 'Islamic Test',
      swapFree: true,
      swapFreeFee: '2.5',
      swapFreeDays: 2,
    });
    expect(made.statusCode, made.body).toBe(200);
    const [plan] = await t.ctx.db.select().from(pricingPlans).where(eq(pricingPlans.name, 'Islamic Test'));
    const a = await kit.trader('swapfree', plan.id);
    const buy = await kit.place(a.cookie, { type: 'buy', instrument: 'EUR_USD', amount: '10000' });
    // Opened on Monday 2026-10-12 at 09:00 New York: its first trading date is that Monday.
    await t.ctx.db
      .update(orders)
      .set({ createdAt: new Date('2026-10-12T13:00:00Z') })
      .where(eq(orders.id, buy.id));
    await run(TUESDAY); // held 1 day: free
    expect(await kit.charges(buy.id)).toEqual([]);
    await run(WEDNESDAY); // held 2 days: the fee, three days' worth on the triple day
    const c = await kit.charge(buy.id, WEDNESDAY);
    expect(c).toMatchObject({ kind: 'fee', days: 3 });
    expect(dec(c.amount).toString()).toBe('-7.5');
    const [entry] = await kit.swapEntries(buy.id);
    expect(entry.note).toBe(`Swap-free fee on EUR_USD for ${WEDNESDAY} (3 days)`);
    expect((await kit.swapAddsUp(buy.id)).toString()).toBe('-7.5');
    await kit.consistent(a.walletId);
  });

  it('charges a swap-free plan without a fee nothing at all', async () => {
    const made = await kit.inject('POST', '/admin/pricing', admin, { name: 'Islamic Free', swapFree: true });
    expect(made.statusCode).toBe(200);
    const [plan] = await t.ctx.db.select().from(pricingPlans).where(eq(pricingPlans.name, 'Islamic Free'));
    const a = await kit.trader('swapnone', plan.id);
    const buy = await kit.place(a.cookie, { type: 'buy', instrument: 'EUR_USD', amount: '10000' });
    await run(WEDNESDAY);
    expect(await kit.charges(buy.id)).toEqual([]);
    expect(dec((await kit.consistent(a.walletId)).balance).toString()).toBe('10000');
  });

  it('charges once when two runs of the same date race, each in two lanes', async () => {
    const a = await kit.trader('swaprace');
    const b = await kit.trader('swaprace2');
    const ids: number[] = [];
    for (const who of [a, b])
      for (let i = 0; i < 5; i++)
        ids.push(
          (await kit.place(who.cookie, { type: i % 2 ? 'sell' : 'buy', instrument: 'EUR_USD', amount: '1000' })).id,
        );
    const date = '2026-10-15';
    const both = () => runRolloverNow(t.ctx, date, { actorId: null, lanes: 2 });
    const [one, two] = await Promise.all([both(), both()]);
    const mine = (await t.ctx.db.select().from(swapCharges).where(eq(swapCharges.tradingDate, date))).filter((c) =>
      ids.includes(c.orderId),
    );
    expect(mine).toHaveLength(10);
    expect(one.result.charged + two.result.charged).toBeGreaterThanOrEqual(10);
    expect(two.result.chargedTotal).toBe(mine.length + (await othersCharged(date, ids)));
    for (const id of ids) {
      expect(await kit.swapEntries(id)).toHaveLength(1);
      await kit.swapAddsUp(id);
    }
    await kit.consistent(a.walletId);
    await kit.consistent(b.walletId);
    expect(await t.ctx.db.select().from(rolloverLanes).where(eq(rolloverLanes.tradingDate, date))).toEqual([]);
  });

  it("splits a run's open positions into lanes of wallets once, about as many positions in each", async () => {
    const date = '2026-10-22';
    await t.ctx.db.insert(rolloverRuns).values({ tradingDate: date, cutoff: new Date() });
    await rowsOf(t.ctx, START_LANES, [date, '{0.25,0.5,0.75}']);
    await rowsOf(t.ctx, START_LANES, [date, '{0.5}']);
    const lanes = await t.ctx.db
      .select()
      .from(rolloverLanes)
      .where(eq(rolloverLanes.tradingDate, date))
      .orderBy(rolloverLanes.lane);
    expect(lanes.map((l) => l.lane)).toEqual([0, 1, 2, 3]);
    expect(lanes[0].lastBalanceId).toBe(0);
    expect(lanes[3].endBalanceId).toBe(DONE);
    for (let i = 1; i < 4; i++) expect(lanes[i].lastBalanceId).toBe(lanes[i - 1].endBalanceId);
    const open = await rowsOf<{ balance_id: number }>(
      t.ctx,
      'SELECT balance_id FROM orders WHERE close_time IS NULL ORDER BY balance_id',
      [],
    );
    const within = lanes.map((l) =>
      open.filter((o) => o.balance_id > l.lastBalanceId && o.balance_id <= l.endBalanceId),
    );
    expect(within.reduce((n, w) => n + w.length, 0)).toBe(open.length);
    // A quarter each, give or take one wallet's positions (a wallet is never split).
    for (const w of within) expect(Math.abs(w.length - open.length / 4)).toBeLessThanOrEqual(200);
    // Charged across four lanes: every open position once, and the lanes folded into the run.
    const { result } = await runRolloverNow(t.ctx, date, { actorId: null, lanes: 4 });
    expect(result.finished).toBe(true);
    expect(result.chargedTotal).toBe(
      (await t.ctx.db.select().from(swapCharges).where(eq(swapCharges.tradingDate, date))).length,
    );
    expect(await t.ctx.db.select().from(rolloverLanes).where(eq(rolloverLanes.tradingDate, date))).toEqual([]);
  });

  it('cuts a debit the balance cannot cover to what it holds', async () => {
    const a = await kit.trader('swapbroke');
    const buy = await kit.place(a.cookie, { type: 'buy', instrument: 'BTC_USD', amount: '0.01' });
    // Far in profit (no stop-out), with 0.2 left on the balance: 18 % a year of 900.10 is 0.45 a day.
    kit.price('BTC_USD', 200000, 200010);
    await t.ctx.db.transaction(async (tx) => {
      const [w] = await tx.select().from(balances).where(eq(balances.id, a.walletId)).for('update');
      await tx.update(balances).set({ balance: '0.2' }).where(eq(balances.id, a.walletId));
      await tx.insert(ledgerEntries).values({
        balanceId: a.walletId,
        kind: 'adjustment',
        amount: dec('0.2').minus(w.balance).toString(),
        balanceAfter: '0.2',
        note: 'test',
      });
    });
    kit.risk().engine.setWalletBalance(a.walletId, 0.2);
    await run('2026-10-16');
    const c = await kit.charge(buy.id, '2026-10-16');
    expect(dec(c.amount).toString()).toBe('-0.2');
    const w = await kit.consistent(a.walletId);
    expect(dec(w.balance).toString()).toBe('0');
    kit.price('BTC_USD', 90000, 90010);
  });

  it('stops out a wallet whose swap takes its margin level below the stop-out level', async () => {
    const a = await kit.trader('swapstopout');
    await kit.setSwap('GBP_USD', '-100', '0');
    kit.price('GBP_USD', 1.27, 1.2702);
    const buy = await kit.place(a.cookie, { type: 'buy', instrument: 'GBP_USD', amount: '100000' });
    // Margin about 1,270 held; a balance of 800 leaves the margin level near 60 %.
    await t.ctx.db.transaction(async (tx) => {
      const [w] = await tx.select().from(balances).where(eq(balances.id, a.walletId)).for('update');
      await tx.update(balances).set({ balance: '800' }).where(eq(balances.id, a.walletId));
      await tx.insert(ledgerEntries).values({
        balanceId: a.walletId,
        kind: 'adjustment',
        amount: dec('800').minus(w.balance).toString(),
        balanceAfter: '800',
        note: 'test',
      });
    });
    kit.risk().engine.setWalletBalance(a.walletId, 800);
    expect(kit.risk().engine.walletState(a.walletId)?.marginLevel).toBeGreaterThan(50);
    // Wednesday: three days of 100 % a year of 127,020 is about 1,058, cut to the 800 there is.
    await run('2026-10-21');
    await kit.risk().idle();
    const o = await kit.row(buy.id);
    expect(o.closeReason).toBe('stop_out');
    expect(dec(o.swap).toString()).toBe('-800');
    await kit.consistent(a.walletId);
    await kit.setSwap('GBP_USD', '0', '0');
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    "links its entries onto an entry committed while its batch waited for the wallet's lock",
    async () => {
      const a = await kit.trader('swapchainwait');
      await kit.place(a.cookie, { type: 'buy', instrument: 'EUR_USD', amount: '10000' });
      let release = (): void => undefined;
      const gate = new Promise<void>((r) => {
        release = r;
      });
      let held = (): void => undefined;
      const locked = new Promise<void>((r) => {
        held = r;
      });
      // Another writer holds the wallet, then adds an entry to its chain after the batch's statement has begun.
      const writer = t.ctx.db.transaction(async (tx) => {
        const [w] = await tx.select().from(balances).where(eq(balances.id, a.walletId)).for('update');
        held();
        await gate;
        const after = dec(w.balance).plus(5).toString();
        await tx.update(balances).set({ balance: after }).where(eq(balances.id, a.walletId));
        await tx
          .insert(ledgerEntries)
          .values({ balanceId: a.walletId, kind: 'adjustment', amount: '5', balanceAfter: after, note: 'test' });
      });
      await locked;
      const rolled = run('2026-10-23');
      await vi.waitFor(
        async () => {
          const [waiting] = await rowsOf<{ n: number }>(
            t.ctx,
            // The batch's text begins with its lane's lock (the activity view keeps only a statement's start).
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%The lane''s row is the lock%'",
            [],
          );
          expect(waiting.n).toBeGreaterThan(0);
        },
        { timeout: 10_000, interval: 20 },
      );
      release();
      await writer;
      expect((await rolled).result.finished).toBe(true);
      const entries = await t.ctx.db
        .select()
        .from(ledgerEntries)
        .where(eq(ledgerEntries.balanceId, a.walletId))
        .orderBy(ledgerEntries.chainSeq);
      expect(entries.map((e) => e.kind).slice(-2)).toEqual(['adjustment', 'swap']);
      await kit.consistent(a.walletId);
    },
  );

  it("keeps a position's swap update a HOT update: no index of orders covers swap, and its pages keep room", async () => {
    const indexes = await rowsOf<{ indexdef: string }>(
      t.ctx,
      "SELECT indexdef FROM pg_indexes WHERE tablename = 'orders'",
      [],
    );
    expect(indexes.length).toBeGreaterThan(0);
    expect(indexes.filter((i) => /\bswap\b/.test(i.indexdef))).toEqual([]);
    const [table] = await rowsOf<{ reloptions: string[] }>(
      t.ctx,
      "SELECT reloptions FROM pg_class WHERE relname = 'orders'",
      [],
    );
    expect(table.reloptions).toContain('fillfactor=50');
  });
});
