import { and, eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { dec } from '@platform/domain';
import { DEMO, resetWalletTo, signIn, type TestApp } from '../../../test/helpers.ts';
import { balances, ledgerEntries, orders, users } from '../../db/schema.ts';
import type { RiskService } from '../../engine/risk-service.ts';
import { verifyRecords } from '../records/verify.ts';
import { closeOrder } from './close-order.ts';

/**
 * The set-up, calls and checks the trading tests share (orders, partial close, trailing stops, netting). A test file
 * keeps its own app (`createTestApp` in its beforeAll, as files run in parallel workers, each on its own database),
 * takes the demo client from `demoClient` and starts each test with `flat`.
 */
export function depthKit(app: () => TestApp) {
  const t = () => app();
  const inject = (method: 'GET' | 'POST' | 'PUT', url: string, cookie: string, payload?: unknown) =>
    t().app.inject({
      method,
      url: `/api${url}`,
      headers: { cookie },
      ...(payload ? { payload: payload as object } : {}),
    });
  const risk = () => t().ctx.risk as RiskService;

  /** A quote straight into the price book, as a feed tick. */
  const price = (name: string, bid: number, ask: number) =>
    t().ctx.market.book.apply([{ name, bid, ask, closeoutBid: bid, closeoutAsk: ask, time: Date.now() }]);

  return {
    inject,
    risk,
    price,
    /** The demo client, signed in: its cookie, user id and active wallet. */
    async demoClient() {
      const client = await signIn(t().app, DEMO.client);
      const [u] = await t().ctx.db.select().from(users).where(eq(users.email, DEMO.client));
      return { client, clientId: u.id, walletId: u.activeBalanceId! };
    },
    /**
     * A test's start: no open position (each closed by the broker), the wallet at 10,000 with the risk engine told,
     * and EUR/USD at 1.1 / 1.1002 and USD/JPY at 150 / 150.02 in the book.
     */
    async flat(walletId: number) {
      const open = await t().ctx.db.select({ id: orders.id }).from(orders).where(sql`${orders.closeTime} is null`);
      for (const o of open) await closeOrder(t().ctx, { orderId: o.id, reason: 'admin' });
      await risk().idle();
      await resetWalletTo(t(), walletId, '10000');
      risk().engine.setWalletBalance(walletId, 10000);
      price('EUR_USD', 1.1, 1.1002);
      price('USD_JPY', 150, 150.02);
    },
    async place(cookie: string, payload: Record<string, unknown>) {
      const res = await inject('POST', '/dashboard/orders', cookie, payload);
      if (res.statusCode !== 200) throw new Error(`place: ${res.statusCode} ${res.body}`);
      return res.json().order as { id: number; trade_amount: string; open_rate: string; partial_of: number | null };
    },
    close: (cookie: string, orderId: number, amount?: string | number) =>
      inject('POST', '/dashboard/orders/close', cookie, { orderId, ...(amount !== undefined ? { amount } : {}) }),
    modify: (cookie: string, orderId: number, body: Record<string, unknown>) =>
      inject('PUT', `/dashboard/orders/${orderId}`, cookie, body),
    async row(id: number) {
      const [o] = await t().ctx.db.select().from(orders).where(eq(orders.id, id));
      return o;
    },
    async wallet(walletId: number) {
      const [w] = await t().ctx.db.select().from(balances).where(eq(balances.id, walletId));
      return w;
    },
    async ledgerOf(ref: number) {
      return t()
        .ctx.db.select()
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.refType, 'order'), eq(ledgerEntries.refId, ref)))
        .orderBy(ledgerEntries.id);
    },
    /**
     * The money invariants after a step: balance = Σ ledger, held margin = Σ open positions' margin, and the risk
     * engine's picture of the wallet equal to the database's.
     */
    async consistent(walletId: number) {
      const db = t().ctx.db;
      const [{ ledger }] = await db
        .select({ ledger: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)::text` })
        .from(ledgerEntries)
        .where(eq(ledgerEntries.balanceId, walletId));
      const [{ margin }] = await db
        .select({ margin: sql<string>`coalesce(sum(${orders.marginUsed}), 0)::text` })
        .from(orders)
        .where(and(eq(orders.balanceId, walletId), sql`${orders.closeTime} is null`));
      const [w] = await db.select().from(balances).where(eq(balances.id, walletId));
      expect(dec(w.balance).toString(), 'balance = Σ ledger').toBe(dec(ledger).toString());
      expect(dec(w.margin).toString(), 'margin = Σ open margins').toBe(dec(margin).toString());
      expect((await verifyRecords(db)).ledger.firstBroken, "the ledger's hash chains hold").toBe(null);
      await risk().idle();
      const check = await risk().check();
      expect(check.phantom).toEqual([]);
      expect(check.missing).toEqual([]);
      expect(check.walletsOff.filter((o) => o.id === walletId)).toEqual([]);
      return w;
    },
  };
}
