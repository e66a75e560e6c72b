import { and, count, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  dec,
  profitLoss,
  type AdminTradeDto,
  type AdminTradeListParams,
  type AdminTradeUpdateRequest,
  type PagedQuery,
  type Side,
} from '@platform/domain';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { OrderRow } from '../../engine/hooks.ts';
import { balances, ledgerEntries, orders, users } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import { countBound, countUnlessWalking, pageMeta, walkFrom, walkOffset, type Walk } from '../../lib/paging.ts';
import { customerScope, type StaffActor } from '../../lib/staff-scope.ts';
import { closeOrder } from '../trading/close-order.ts';
import { updateOrderLevels } from '../trading/modify-order.ts';
import { closePartOfOrder } from '../trading/partial-close.ts';
import { tradingMemoryOf } from '../trading/trading-memory.ts';
import { livePlOf, moveMoney, onWallet } from '../wallets/ledger.ts';
import { reverseDealCommissions } from '../partners/accrual.ts';

type Ctx = Pick<AppContext, 'db' | 'risk' | 'market' | 'realtime'>;
type ListType = z.output<typeof AdminTradeListParams>['type'];
type Order = OrderRow;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** An open trade's floating P/L as the risk engine holds it (8 decimals), null once closed or before its first price. */
export function floatingPl(risk: AppContext['risk'], o: Pick<Order, 'id' | 'closeTime'>): string | null {
  if (o.closeTime) return null;
  const pl = risk.positionPl(o.id);
  return pl === null ? null : dec(pl).toFixed(8);
}

function tradeDto(
  o: Order,
  u: { email: string },
  b: { mode: string; currency: string },
  livePl: string | null = null,
): AdminTradeDto {
  return {
    id: o.id,
    user: { id: o.userId, email: u.email },
    balance: { mode: b.mode, currency: b.currency },
    type: o.type,
    instrument: o.instrument,
    trade_amount: o.tradeAmount,
    open_rate: o.openRate,
    close_rate: o.closeRate,
    spread: o.spread,
    margin_used: o.marginUsed,
    pro_loss: o.proLoss,
    swap: o.swap ?? '0',
    commission: o.commission ?? '0',
    live_pl: livePl,
    profit: o.takeProfit,
    loss: o.stopLoss,
    leverage: o.leverage,
    created_at: o.createdAt.toISOString(),
    close_time: iso(o.closeTime),
  };
}

const listFilter = (staff: StaffActor, type: ListType, userId?: number) =>
  and(
    isNull(orders.voidedAt),
    customerScope(staff, orders.userId),
    type === 'open' ? isNull(orders.closeTime) : type === 'closed' ? isNotNull(orders.closeTime) : undefined,
    userId ? eq(orders.userId, userId) : undefined,
  );

/**
 * GET /admin/trades/api/{type}[/{userId}]: newest first, voided trades left out, a manager's customers only. The
 * page's ids are found first (an index-only walk down the partial index of live trades), and only those rows are
 * joined; the count stops a window past the page (lib/paging.ts countBound).
 */
export async function listTrades(
  ctx: Pick<AppContext, 'db' | 'risk'>,
  staff: StaffActor,
  type: ListType,
  q: PagedQuery & Walk,
  userId?: number,
) {
  const where = listFilter(staff, type, userId);
  const bound = countBound(q);
  const page = ctx.db
    .select({ id: orders.id })
    .from(orders)
    .where(and(where, walkFrom(q, orders.id)))
    .orderBy(desc(orders.id))
    .limit(q.limit)
    .offset(walkOffset(q))
    .as('page');
  const counted = ctx.db.select({ one: sql`1` }).from(orders).where(where).limit(bound).as('counted');
  const [rows, [{ n }]] = await Promise.all([
    ctx.db
      .select({ o: orders, u: { email: users.email }, b: { mode: balances.mode, currency: balances.currency } })
      .from(page)
      .innerJoin(orders, eq(orders.id, page.id))
      .innerJoin(users, eq(users.id, orders.userId))
      .innerJoin(balances, eq(balances.id, orders.balanceId))
      .orderBy(desc(orders.id)),
    countUnlessWalking(q, () => ctx.db.select({ n: count() }).from(counted)),
  ]);
  return { data: rows.map((r) => tradeDto(r.o, r.u, r.b, floatingPl(ctx.risk, r.o))), meta: pageMeta(q, n, bound) };
}

/** One trade the staff member may act on (not voided), with its owner's email and wallet; 404 otherwise. */
export async function tradeOf(ctx: Pick<AppContext, 'db'>, staff: StaffActor, id: number) {
  const [row] = await ctx.db
    .select({ o: orders, u: { email: users.email }, b: { mode: balances.mode, currency: balances.currency } })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .innerJoin(balances, eq(balances.id, orders.balanceId))
    .where(and(eq(orders.id, id), isNull(orders.voidedAt), customerScope(staff, orders.userId)));
  if (!row) throw new AppError('ORDER_NOT_FOUND');
  return row;
}

export const snapshot = (o: Order) => ({
  open_rate: o.openRate,
  close_rate: o.closeRate,
  spread: o.spread,
  pro_loss: o.proLoss,
  take_profit: o.takeProfit,
  stop_loss: o.stopLoss,
  created_at: o.createdAt.toISOString(),
  close_time: iso(o.closeTime),
  voided_at: iso(o.voidedAt),
});

/**
 * POST /admin/trades/close: at the server's current price, through the client's own close transaction; with an
 * amount, that part only (the client's partial close, under the same lot rules), answering the closed part.
 */
export async function closeTrade(
  ctx: Ctx,
  staff: StaffActor,
  orderId: number,
  amount?: string,
): Promise<AdminTradeDto> {
  const { u, b } = await tradeOf(ctx, staff, orderId);
  const closed =
    amount === undefined
      ? await closeOrder(ctx, { orderId, reason: 'admin', actorId: staff.id })
      : (await closePartOfOrder(ctx, { orderId, amount, reason: 'admin', actorId: staff.id })).deal;
  await writeAudit(ctx.db, {
    actorId: staff.id,
    targetUserId: closed.userId,
    action: 'order.close',
    subjectType: 'order',
    subjectId: orderId,
    after: { ...snapshot(closed), ...(closed.partialOf ? { amount: closed.tradeAmount, deal: closed.id } : {}) },
    ip: staff.ip,
  });
  return tradeDto(closed, u, b);
}

/** A closed trade's rates after an edit, its P/L computed again with the close's formula, and the change to book. */
export function editedResult(o: Order, input: z.output<typeof AdminTradeUpdateRequest>) {
  const openRate = input.openRate ?? o.openRate;
  const closeRate = input.closeRate ?? o.closeRate!;
  const spread = input.spread ?? o.spread;
  const pl = profitLoss({
    side: o.type as Side,
    openRate,
    closeRate,
    amount: o.tradeAmount,
    spread,
    conversionRate: o.exchangeRate,
  }).toDecimalPlaces(8);
  return { openRate, closeRate, spread, pl, delta: pl.minus(o.proLoss ?? 0) };
}

/**
 * PUT /admin/trades/{id} (Edit Order). An open trade takes new take-profit / stop-loss (through the client's own
 * checks, so the risk engine follows) and open time. A closed trade's rates and spread may be corrected: its P/L is
 * computed again with the close's formula, and the difference moves the wallet through the ledger in the same
 * transaction, with an entry naming the edit. Every edit is audited with before and after.
 */
export async function updateTrade(
  ctx: Ctx,
  staff: StaffActor,
  id: number,
  input: z.output<typeof AdminTradeUpdateRequest>,
  /** Runs first in the edit's transaction (a four-eyes approval claims its request there); closed trades only. */
  within?: (tx: DbOrTx) => Promise<void>,
): Promise<AdminTradeDto> {
  const { o: current, u, b } = await tradeOf(ctx, staff, id);
  if (within && !current.closeTime) throw new AppError('ORDER_NOT_FOUND');
  const openTime = input.openTime ? new Date(`${input.openTime}:00Z`) : undefined;
  if (!current.closeTime) {
    const changes =
      (input.openRate !== undefined && !dec(input.openRate).eq(current.openRate)) ||
      (input.spread !== undefined && !dec(input.spread).eq(current.spread)) ||
      (input.closeRate ?? null) !== null;
    if (changes) throw new AppError('ORDER_OPEN_FIELDS');
    let order: Order = current;
    if (input.profit !== undefined || input.loss !== undefined)
      order = await updateOrderLevels(ctx, current.userId, id, {
        profit: input.profit ?? null,
        loss: input.loss ?? null,
      });
    if (openTime)
      [order] = await ctx.db.update(orders).set({ createdAt: openTime }).where(eq(orders.id, id)).returning();
    await writeAudit(ctx.db, {
      actorId: staff.id,
      targetUserId: current.userId,
      action: 'order.update',
      subjectType: 'order',
      subjectId: id,
      before: snapshot(current),
      after: snapshot(order),
      ip: staff.ip,
    });
    return tradeDto(order, u, b, floatingPl(ctx.risk, order));
  }
  const updated = await onWallet(ctx, current.balanceId, () =>
    ctx.db.transaction(async (tx) => {
      if (within) await within(tx);
      const [o] = await tx
        .select()
        .from(orders)
        .where(and(eq(orders.id, id), isNull(orders.voidedAt)))
        .for('update');
      if (!o) throw new AppError('ORDER_NOT_FOUND');
      const { openRate, closeRate, spread, pl, delta } = editedResult(o, input);
      let walletBalance: string | null = null;
      if (!delta.isZero()) {
        const moved = await moveMoney(tx, {
          balanceId: o.balanceId,
          amount: delta.toFixed(8),
          kind: 'adjustment',
          refType: 'order',
          refId: o.id,
          actorId: staff.id,
          note: `Order #${o.id} edited by staff: P/L ${o.proLoss} → ${pl.toFixed(8)}`,
          freeFundsWithPl: livePlOf(ctx, o.balanceId),
        });
        if (!moved) throw new AppError('ORDER_REVERSAL_FUNDS');
        walletBalance = moved.balanceAfter;
      }
      const [row] = await tx
        .update(orders)
        .set({
          openRate,
          closeRate,
          spread,
          proLoss: pl.toFixed(8),
          ...(input.profit !== undefined ? { takeProfit: input.profit } : {}),
          ...(input.loss !== undefined ? { stopLoss: input.loss } : {}),
          ...(openTime ? { createdAt: openTime } : {}),
        })
        .where(eq(orders.id, id))
        .returning();
      await writeAudit(tx, {
        actorId: staff.id,
        targetUserId: o.userId,
        action: 'order.update',
        subjectType: 'order',
        subjectId: id,
        before: snapshot(o),
        after: snapshot(row),
        ip: staff.ip,
      });
      return { row, walletBalance };
    }),
  );
  ctx.realtime.toUser(updated.row.userId, 'ordersChanged', {
    balanceId: updated.row.balanceId,
    orderId: id,
    reason: 'modified',
  });
  return tradeDto(updated.row, u, b);
}

/**
 * DELETE /admin/trades/{id}: voids a closed trade. The row stays (voided_at, voided_by) and leaves every list; the
 * money its close booked (P/L, spread, negative balance protection) is reversed by one ledger entry. The void is a
 * conditional update, so two deletes at once reverse once. An open trade must be closed first.
 */
export async function voidTrade(
  ctx: Ctx,
  staff: StaffActor,
  id: number,
  /** Runs first in the void's transaction (a four-eyes approval claims its request there). */
  within?: (tx: DbOrTx) => Promise<void>,
): Promise<void> {
  const { o: current } = await tradeOf(ctx, staff, id);
  if (!current.closeTime) throw new AppError('ORDER_OPEN_DELETE');
  const done = await onWallet(ctx, current.balanceId, () =>
    ctx.db.transaction(async (tx) => {
      if (within) await within(tx);
      const [o] = await tx
        .update(orders)
        .set({ voidedAt: new Date(), voidedBy: staff.id })
        .where(and(eq(orders.id, id), isNull(orders.voidedAt), isNotNull(orders.closeTime)))
        .returning();
      if (!o) throw new AppError('ORDER_NOT_FOUND');
      const [{ booked }] = await tx
        .select({ booked: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)::text` })
        .from(ledgerEntries)
        .where(
          and(
            eq(ledgerEntries.refType, 'order'),
            eq(ledgerEntries.refId, id),
            eq(ledgerEntries.balanceId, o.balanceId),
          ),
        );
      let walletBalance: string | null = null;
      if (!dec(booked).isZero()) {
        const moved = await moveMoney(tx, {
          balanceId: o.balanceId,
          amount: dec(booked).negated().toFixed(8),
          kind: 'adjustment',
          refType: 'order',
          refId: id,
          actorId: staff.id,
          note: `Order #${id} voided by staff: its booked result reversed`,
          freeFundsWithPl: livePlOf(ctx, o.balanceId),
        });
        if (!moved) throw new AppError('ORDER_REVERSAL_FUNDS');
        walletBalance = moved.balanceAfter;
      }
      // The partners' commissions on the deal are taken back in the same transaction.
      const partnerMoves = await reverseDealCommissions(tx, id, staff.id);
      await writeAudit(tx, {
        actorId: staff.id,
        targetUserId: o.userId,
        action: 'order.void',
        subjectType: 'order',
        subjectId: id,
        before: snapshot(current),
        after: { ...snapshot(o), reversed: dec(booked).negated().toFixed(8) },
        ip: staff.ip,
      });
      return { o, walletBalance, partnerMoves };
    }),
  );
  for (const m of done.partnerMoves) ctx.risk.balanceChanged(m.walletId, m.balance);
  tradingMemoryOf(ctx.db).forgetOpenOrder(id);
  ctx.realtime.toUser(done.o.userId, 'ordersChanged', { balanceId: done.o.balanceId, orderId: id, reason: 'modified' });
}
