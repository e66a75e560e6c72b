import { and, eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { Decimal, dec } from '@platform/domain';
import { newVerifiedCustomer, resetWalletTo, signIn, type TestApp } from '../../../test/helpers.ts';
import { balances, instruments, ledgerEntries, orders, rolloverRuns, swapCharges, users } from '../../db/schema.ts';
import type { RiskService } from '../../engine/risk-service.ts';
import { depthKit } from '../trading/depth-testing.ts';
import { forgetTrader } from '../trading/trader.ts';
import { addDays, localDateOf } from './clock.ts';

/** What the rollover tests share: traders with a wallet, positions, swap rates and the checks of money. */
export function rolloverKit(app: () => TestApp) {
  const t = () => app();
  const kit = depthKit(app);

  return {
    ...kit,
    /**
     * The scheduled job runs every minute while a test app lives: its dates (yesterday, today and tomorrow in New
     * York) are marked done so it charges nothing behind a test's back.
     */
    async quietSchedule() {
      const today = localDateOf(new Date(), 'America/New_York');
      for (const d of [addDays(today, -1), today, addDays(today, 1)])
        await t()
          .ctx.db.insert(rolloverRuns)
          .values({ tradingDate: d, cutoff: new Date(), finishedAt: new Date() })
          .onConflictDoNothing();
    },
    async setSwap(name: string, swapLong: string, swapShort: string) {
      await t().ctx.db.update(instruments).set({ swapLong, swapShort }).where(eq(instruments.name, name));
    },
    /** A new customer on `planId` (none: no plan) with 10,000 on their active wallet. */
    async trader(prefix: string, planId: number | null = null) {
      const who = await newVerifiedCustomer(t(), prefix);
      await t().ctx.db.update(users).set({ pricingTableId: planId }).where(eq(users.id, who.id));
      forgetTrader(t().ctx.db, who.id);
      const cookie = await signIn(t().app, who.email, who.password);
      const [u] = await t().ctx.db.select().from(users).where(eq(users.id, who.id));
      const walletId = u.activeBalanceId as number;
      await resetWalletTo(t(), walletId, '10000');
      (t().ctx.risk as RiskService).engine.setWalletBalance(walletId, 10000);
      return { id: who.id, cookie, walletId };
    },
    /** A forex instrument of a test's own (TST_USD at 1.1), with its swap rates, added as admins do. */
    async addInstrument(admin: string, name: string, swapLong: string, swapShort: string) {
      const [base, quote] = name.split('_');
      const added = await kit.inject('POST', '/admin/instruments', admin, {
        name,
        base,
        quote,
        category: 'forex',
        bids: '1.1',
        asks: '1.1002',
        tradingview: 'OANDA',
        leverage: 100,
        tradable: true,
        swapLong,
        swapShort,
      });
      expect(added.statusCode, added.body).toBe(201);
      kit.price(name, 1.1, 1.1002);
      const [row] = await t().ctx.db.select().from(instruments).where(eq(instruments.name, name));
      return row;
    },
    /**
     * `perWallet` positions on each of `wallets` new wallets (1,000 each, as an adjustment) of a user, long and short
     * in turn, 1,000 units at 1.1 held since `since`, written straight to the database (no margin held); the risk
     * engine reloads them.
     */
    async insertPositions(
      userId: number,
      instrument: typeof instruments.$inferSelect,
      wallets: number,
      perWallet: number,
      since: Date,
    ) {
      const made = await t()
        .ctx.db.insert(balances)
        .values(Array.from({ length: wallets }, () => ({ userId, mode: 'demo', currency: 'USD', balance: '1000' })))
        .returning({ id: balances.id });
      const walletIds = made.map((w) => w.id);
      await t()
        .ctx.db.insert(ledgerEntries)
        .values(walletIds.map((id) => ({ balanceId: id, kind: 'adjustment', amount: '1000', balanceAfter: '1000' })));
      const rows = walletIds.flatMap((balanceId) =>
        Array.from({ length: perWallet }, (_, i) => ({
          userId,
          balanceId,
          balanceMode: 'demo',
          balanceCurrency: 'USD',
          instrumentId: instrument.id,
          instrument: instrument.name,
          baseSymbol: instrument.base,
          quoteSymbol: instrument.quote,
          kind: 'forex',
          type: i % 2 ? 'sell' : 'buy',
          tradeAmount: '1000',
          openRate: '1.1',
          openBid: '1.1',
          openAsk: '1.1',
          spread: '0',
          exchangeRate: '1',
          marginUsed: '0',
          leverage: 100,
          createdAt: since,
        })),
      );
      const orderIds = (await t().ctx.db.insert(orders).values(rows).returning({ id: orders.id })).map((o) => o.id);
      await kit.risk().takeOver();
      return { walletIds, orderIds };
    },
    /** The swap a position pays or earns for `days`: amount × open rate × rate × days ÷ (exchange rate × 36,000). */
    expected(o: { trade_amount: string; open_rate: string }, rate: string, days: number, exchangeRate = '1') {
      return dec(o.trade_amount)
        .times(o.open_rate)
        .times(rate)
        .times(days)
        .div(dec(exchangeRate).times(36000))
        .toDecimalPlaces(8, Decimal.ROUND_HALF_UP);
    },
    async charges(orderId: number) {
      return t()
        .ctx.db.select()
        .from(swapCharges)
        .where(eq(swapCharges.orderId, orderId))
        .orderBy(swapCharges.tradingDate);
    },
    async charge(orderId: number, tradingDate: string) {
      const [c] = await t()
        .ctx.db.select()
        .from(swapCharges)
        .where(and(eq(swapCharges.orderId, orderId), eq(swapCharges.tradingDate, tradingDate)));
      return c;
    },
    /** The swap ledger entries of a position. */
    async swapEntries(orderId: number) {
      return t()
        .ctx.db.select()
        .from(ledgerEntries)
        .where(
          and(eq(ledgerEntries.refId, orderId), eq(ledgerEntries.refType, 'order'), eq(ledgerEntries.kind, 'swap')),
        )
        .orderBy(ledgerEntries.id);
    },
    /** A position's accumulated swap equals the sum of its charges and of its swap ledger entries. */
    async swapAddsUp(orderId: number) {
      const [o] = await t().ctx.db.select().from(orders).where(eq(orders.id, orderId));
      const [{ charged }] = await t()
        .ctx.db.select({ charged: sql<string>`coalesce(sum(${swapCharges.amount}), 0)::text` })
        .from(swapCharges)
        .where(eq(swapCharges.orderId, orderId));
      const entries = await this.swapEntries(orderId);
      const booked = entries.reduce((s, e) => s.plus(e.amount), dec(0));
      expect(dec(o.swap).toString()).toBe(dec(charged).toString());
      expect(booked.toString()).toBe(dec(charged).toString());
      return dec(o.swap);
    },
  };
}
