import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { type Decimal, closePrice, dec, profitLoss, type Side } from '@platform/domain';
import { createTestApp, DEMO, resetWalletTo, signIn, type TestApp } from '../../test/helpers.ts';
import { balances, ledgerEntries, orders, users } from '../db/schema.ts';
import { closeOrder } from '../modules/trading/close-order.ts';
import type { RiskService } from './risk-service.ts';

/**
 * Whole-stack properties on random price paths: real orders through the HTTP API, the price book, the risk engine
 * and the close transactions on the database. USD-quoted instruments keep the conversion rate at 1.
 */
let t: TestApp;
let client: string;
let walletId: number;
const STOPOUT = 50; // the demo client's Basic plan
const INSTRUMENTS = {
  EUR_USD: { mid: 1.1, spread: 0.0002, digits: 5 },
  XAU_USD: { mid: 2650, spread: 0.3, digits: 2 },
} as const;
type Name = keyof typeof INSTRUMENTS;

const risk = () => t.ctx.risk as RiskService;
const quoteOf = (name: Name, mid: number) => {
  const { spread, digits } = INSTRUMENTS[name];
  const bid = Number((mid - spread / 2).toFixed(digits));
  return { name, bid, ask: Number((bid + spread).toFixed(digits)) };
};
const apply = (q: { name: Name; bid: number; ask: number }) =>
  t.ctx.market.book.apply([{ ...q, closeoutBid: q.bid, closeoutAsk: q.ask, time: Date.now() }]);

async function reset(): Promise<void> {
  for (const name of Object.keys(INSTRUMENTS) as Name[]) apply(quoteOf(name, INSTRUMENTS[name].mid));
  const open = await t.ctx.db.select({ id: orders.id }).from(orders).where(isNull(orders.closeTime));
  for (const o of open) await closeOrder(t.ctx, { orderId: o.id, reason: 'admin' }).catch(() => undefined);
  await risk().idle();
  await resetWalletTo(t, walletId, '10000');
  risk().engine.setWalletBalance(walletId, 10000);
}

async function snapshot() {
  const [w] = await t.ctx.db.select().from(balances).where(eq(balances.id, walletId));
  const open = await t.ctx.db
    .select()
    .from(orders)
    .where(and(eq(orders.balanceId, walletId), isNull(orders.closeTime)));
  const [l] = await t.ctx.db
    .select({ s: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)` })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.balanceId, walletId));
  return { balance: dec(w.balance), margin: dec(w.margin), ledger: dec(l.s), open };
}

/** Margin level (equity ÷ used margin × 100) in decimal at the current book prices; null without positions. */
function levelOf(
  balance: Decimal,
  open: Array<typeof orders.$inferSelect>,
): { equity: Decimal; level: Decimal | null } {
  let pl = dec(0);
  let margin = dec(0);
  for (const o of open) {
    const q = t.ctx.market.book.get(o.instrument)!;
    pl = pl.plus(
      profitLoss({
        side: o.type as Side,
        openRate: o.openRate,
        closeRate: closePrice(o.type as Side, q),
        amount: o.tradeAmount,
        spread: o.spread,
        conversionRate: 1,
      }),
    );
    margin = margin.plus(o.marginUsed);
  }
  const equity = balance.plus(pl);
  return { equity, level: margin.isZero() ? null : equity.div(margin).times(100) };
}

beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, DEMO.client);
  const [u] = await t.ctx.db.select().from(users).where(eq(users.email, DEMO.client));
  walletId = u.activeBalanceId!;
});
afterAll(() => t.close());

const positionArb = fc.record({
  name: fc.constantFrom<Name>('EUR_USD', 'XAU_USD'),
  side: fc.constantFrom<Side>('buy', 'sell'),
  // EUR lots of 10k–300k units, gold of 1–60 ounces
  size: fc.integer({ min: 1, max: 30 }),
});
// Each step moves one instrument by up to ±1.5 % of its mid (a rough market with gaps).
const stepArb = fc.record({
  name: fc.constantFrom<Name>('EUR_USD', 'XAU_USD'),
  move: fc.double({ min: -0.015, max: 0.015, noNaN: true }),
});

describe('risk properties on random price paths', () => {
  it('keeps every wallet invariant and stops out exactly when the level reaches the threshold', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(positionArb, { minLength: 1, maxLength: 6 }),
        fc.array(stepArb, { minLength: 5, maxLength: 25 }),
        async (positions, steps) => {
          await reset();
          for (const p of positions) {
            const amount = p.name === 'EUR_USD' ? p.size * 10000 : p.size * 2;
            await t.app.inject({
              method: 'POST',
              url: '/api/dashboard/orders',
              headers: { cookie: client },
              payload: { type: p.side, instrument: p.name, amount },
            });
          }
          await risk().idle();
          const mids: Record<Name, number> = { EUR_USD: INSTRUMENTS.EUR_USD.mid, XAU_USD: INSTRUMENTS.XAU_USD.mid };
          for (const step of steps) {
            const before = await snapshot();
            mids[step.name] *= 1 + step.move;
            apply(quoteOf(step.name, mids[step.name]));
            // The level at this tick's prices, before any automatic close.
            const at = levelOf(before.balance, before.open);
            await risk().idle();
            const after = await snapshot();
            const stoppedOut = await t.ctx.db
              .select({ id: orders.id })
              .from(orders)
              .where(and(eq(orders.balanceId, walletId), eq(orders.closeReason, 'stop_out')));
            const breached = at.level !== null && (at.level.lte(STOPOUT) || at.equity.lte(0));
            const closedNow = before.open.filter((o) => !after.open.some((a) => a.id === o.id));
            const stopOutsNow = closedNow.filter((o) => stoppedOut.some((s) => s.id === o.id));
            // No stop-out above the threshold; at or below it, the first close happens on this very tick.
            if (!breached) expect(stopOutsNow).toEqual([]);
            else expect(stopOutsNow.length).toBeGreaterThan(0);
            // After the tick settles the wallet is safe again (or flat).
            const now = levelOf(after.balance, after.open);
            if (now.level !== null) expect(now.level.gt(STOPOUT) && now.equity.gt(0)).toBe(true);
            expect(after.balance.gte(0)).toBe(true);
            expect(after.margin).toEqual(after.open.reduce((s, o) => s.plus(o.marginUsed), dec(0)));
            expect(after.balance).toEqual(after.ledger);
          }
        },
      ),
      { numRuns: 12 },
    );
  }, 120_000);
});
