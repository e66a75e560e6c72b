import { and, eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { dec } from '@platform/domain';
import type { TestApp } from '../../../test/helpers.ts';
import { balances, ledgerEntries, orders } from '../../db/schema.ts';
import type { RiskService } from '../../engine/risk-service.ts';

/** Calls and checks the partial close, trailing stop and netting tests share. */
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

  return {
    inject,
    risk,
    /** A quote straight into the price book, as a feed tick. */
    price(name: string, bid: number, ask: number) {
      t().ctx.market.book.apply([{ name, bid, ask, closeoutBid: bid, closeoutAsk: ask, time: Date.now() }]);
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
      await risk().idle();
      const check = await risk().check();
      expect(check.phantom).toEqual([]);
      expect(check.missing).toEqual([]);
      expect(check.walletsOff.filter((o) => o.id === walletId)).toEqual([]);
      return w;
    },
  };
}
