import { and, eq, isNull, sql } from 'drizzle-orm';
import {
  dec,
  formatMoney,
  GATEWAY_SPECS,
  type AdminTradeUpdateRequest,
  type ApprovalKind,
  type ApprovalSettings,
  type BalanceAdjustRequest,
  type GatewayKind,
  type GatewayUpdateRequest,
  type RoleId,
} from '@platform/domain';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { balances, deposits, ledgerEntries, pricingPlans, users, withdrawals } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import { customerScope, type StaffActor } from '../../lib/staff-scope.ts';
import { editedResult, snapshot, tradeOf, updateTrade, voidTrade } from '../admin-trades/service.ts';
import { adjustBalance } from '../customers/balance.ts';
import { reviewDeposit } from '../deposits/review.ts';
import { secretsChangedBy, updateGateway } from '../gateways/service.ts';
import { forgetTrader } from '../trading/trader.ts';
import { reviewWithdrawal } from '../withdrawals/service.ts';

/** An action that may need a second person, with the input it runs with (kept as the request's payload). */
export type ApprovalAction =
  | { kind: 'withdrawal'; id: number }
  | { kind: 'deposit'; id: number; overrideReason?: string }
  | { kind: 'balance_adjustment'; balanceId: number; input: z.output<typeof BalanceAdjustRequest> }
  | { kind: 'trade_edit'; id: number; input: z.output<typeof AdminTradeUpdateRequest> }
  | { kind: 'trade_void'; id: number }
  | { kind: 'plan_change'; userId: number; planId: number | null }
  | { kind: 'gateway_secrets'; name: GatewayKind; input: z.output<typeof GatewayUpdateRequest> };

/** What a request records about its action, read when it is asked for. */
export interface Described {
  targetUserId: number | null;
  /** One pending request per subject; null where several may wait at once (adjustments). */
  subjectKey: string | null;
  /** The money it moves, unsigned, in `currency`; null for the kinds without an amount. */
  amount: string | null;
  currency: string | null;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  summary: string;
  reason: string | null;
}

type Ctx = AppContext;
type Within = (tx: DbOrTx) => Promise<void>;

/**
 * Who may approve each kind: the roles the action itself needs, and whether a manager is limited to their own
 * customers (the same customer scope the action applies). One place to read who may approve what.
 */
export const APPROVERS: Record<ApprovalKind, { roles: readonly RoleId[]; scoped: boolean }> = {
  withdrawal: { roles: [1, 2], scoped: true },
  deposit: { roles: [1, 2], scoped: true },
  balance_adjustment: { roles: [1, 2], scoped: true },
  trade_edit: { roles: [1, 2], scoped: true },
  trade_void: { roles: [1, 2], scoped: true },
  plan_change: { roles: [1], scoped: false },
  gateway_secrets: { roles: [1], scoped: false },
};

/** The threshold that applies to a kind: an amount (null = off), or for the switches '0' when on (always). */
export function thresholdOf(s: ApprovalSettings, kind: ApprovalKind): string | null {
  switch (kind) {
    case 'withdrawal':
      return s.withdrawal;
    case 'deposit':
      return s.deposit;
    case 'balance_adjustment':
      return s.balanceAdjustment;
    case 'trade_edit':
    case 'trade_void':
      return s.trade;
    case 'plan_change':
      return s.planChange ? '0' : null;
    case 'gateway_secrets':
      return s.gatewaySecrets ? '0' : null;
  }
}

const userName = async (db: DbOrTx, id: number) =>
  (await db.select({ n: users.fullName }).from(users).where(eq(users.id, id)))[0]?.n ?? `#${id}`;

/**
 * Reads the subject of an action in the caller's scope (404 as the action would answer), or null when the action
 * would not go ahead anyway (already reviewed, nothing to change): the action then answers for itself.
 */
export async function describe(ctx: Ctx, actor: StaffActor, a: ApprovalAction): Promise<Described | null> {
  switch (a.kind) {
    case 'withdrawal': {
      const [w] = await ctx.db
        .select()
        .from(withdrawals)
        .where(and(eq(withdrawals.id, a.id), customerScope(actor, withdrawals.userId)));
      if (!w) throw new AppError('WITHDRAWAL_NOT_FOUND');
      if (w.status !== 'pending') return null;
      return {
        targetUserId: w.userId,
        subjectKey: `withdrawal:${w.id}`,
        amount: w.total,
        currency: w.currency,
        before: { withdrawal: w.id, status: 'pending', total: w.total, bank: w.bankName },
        after: { withdrawal: w.id, status: 'approved', total: w.total, bank: w.bankName, paidOut: w.total },
        summary: `Pay out withdrawal #${w.id} of ${await userName(ctx.db, w.userId)}: ${formatMoney(w.total, w.currency)} to ${w.bankName}`,
        reason: null,
      };
    }
    case 'deposit': {
      const [d] = await ctx.db
        .select()
        .from(deposits)
        .where(and(eq(deposits.id, a.id), customerScope(actor, deposits.userId)));
      if (!d) throw new AppError('DEPOSIT_NOT_FOUND');
      if (d.status !== 'pending') return null;
      return {
        targetUserId: d.userId,
        subjectKey: `deposit:${d.id}`,
        amount: d.amount,
        currency: d.currency,
        before: { deposit: d.id, status: 'pending', amount: d.amount, gateway: d.gateway },
        after: { deposit: d.id, status: 'approved', amount: d.amount, gateway: d.gateway, credited: d.amount },
        summary: `Approve deposit #${d.id} of ${await userName(ctx.db, d.userId)}: ${formatMoney(d.amount, d.currency)} by ${d.gateway}`,
        reason: a.overrideReason ?? null,
      };
    }
    case 'balance_adjustment': {
      const [w] = await ctx.db
        .select({ id: balances.id, userId: balances.userId, currency: balances.currency, balance: balances.balance })
        .from(balances)
        .innerJoin(users, eq(users.id, balances.userId))
        .where(
          and(
            eq(balances.id, a.balanceId),
            eq(users.roleId, 3),
            isNull(users.deletedAt),
            customerScope(actor, balances.userId),
          ),
        );
      if (!w) throw new AppError('WALLET_NOT_FOUND');
      const signed = a.input.type === 'add' ? dec(a.input.amount) : dec(a.input.amount).negated();
      return {
        targetUserId: w.userId,
        subjectKey: null,
        amount: a.input.amount,
        currency: w.currency,
        before: { balance_id: w.id, balance: w.balance },
        after: { balance_id: w.id, balance: dec(w.balance).plus(signed).toFixed(8), type: a.input.type },
        summary: `${a.input.type === 'add' ? 'Add' : 'Subtract'} ${formatMoney(a.input.amount, w.currency)} ${a.input.type === 'add' ? 'to' : 'from'} wallet #${w.id} of ${await userName(ctx.db, w.userId)}`,
        reason: a.input.reason,
      };
    }
    case 'trade_edit': {
      const { o, b } = await tradeOf(ctx, actor, a.id);
      if (!o.closeTime) return null; // an open trade's levels move no money
      const r = editedResult(o, a.input);
      return {
        targetUserId: o.userId,
        subjectKey: `order:${o.id}`,
        amount: r.delta.abs().toFixed(8),
        currency: b.currency,
        before: snapshot(o),
        after: {
          ...snapshot(o),
          open_rate: r.openRate,
          close_rate: r.closeRate,
          spread: r.spread,
          pro_loss: r.pl.toFixed(8),
        },
        summary: `Edit closed trade #${o.id} (${o.instrument}) of ${await userName(ctx.db, o.userId)}: P/L ${o.proLoss} → ${r.pl.toFixed(2)} ${b.currency}`,
        reason: null,
      };
    }
    case 'trade_void': {
      const { o, b } = await tradeOf(ctx, actor, a.id);
      if (!o.closeTime) return null;
      const [{ booked }] = await ctx.db
        .select({ booked: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)::text` })
        .from(ledgerEntries)
        .where(
          and(
            eq(ledgerEntries.refType, 'order'),
            eq(ledgerEntries.refId, o.id),
            eq(ledgerEntries.balanceId, o.balanceId),
          ),
        );
      return {
        targetUserId: o.userId,
        subjectKey: `order:${o.id}`,
        amount: dec(booked).abs().toFixed(8),
        currency: b.currency,
        before: snapshot(o),
        after: { voided: true, reversed: dec(booked).negated().toFixed(8) },
        summary: `Void closed trade #${o.id} (${o.instrument}) of ${await userName(ctx.db, o.userId)}: reverse ${formatMoney(dec(booked).negated().toFixed(2), b.currency)}`,
        reason: null,
      };
    }
    case 'plan_change': {
      const [u] = await ctx.db
        .select({ id: users.id, name: users.fullName, plan: users.pricingTableId })
        .from(users)
        .where(and(eq(users.id, a.userId), eq(users.roleId, 3), isNull(users.deletedAt)));
      if (!u) throw new AppError('CUSTOMER_NOT_FOUND');
      if (u.plan === a.planId) return null;
      const planName = async (id: number | null) =>
        id === null
          ? 'none'
          : ((await ctx.db.select({ n: pricingPlans.name }).from(pricingPlans).where(eq(pricingPlans.id, id)))[0]?.n ??
            `#${id}`);
      const from = await planName(u.plan);
      const to = await planName(a.planId);
      return {
        targetUserId: u.id,
        subjectKey: `plan:${u.id}`,
        amount: null,
        currency: null,
        before: { pricing_plan_id: u.plan, plan: from },
        after: { pricing_plan_id: a.planId, plan: to },
        summary: `Change the pricing plan of ${u.name}: ${from} → ${to}`,
        reason: null,
      };
    }
    case 'gateway_secrets': {
      const changed = await secretsChangedBy(ctx.db, a.name, a.input);
      if (!changed.length) return null;
      const spec = GATEWAY_SPECS[a.name];
      return {
        targetUserId: null,
        subjectKey: `gateway:${a.name}`,
        amount: null,
        currency: null,
        // Secrets never leave the server: the record names the fields, not their values.
        before: { gateway: spec.name, secrets: changed.map((l) => `${l}: (set)`) },
        after: { gateway: spec.name, secrets: changed.map((l) => `${l}: (new value)`) },
        summary: `Change the secrets of the ${spec.name} gateway: ${changed.join(', ')}`,
        reason: null,
      };
    }
  }
}

/** Runs an approved action as its requester would have, with `within` first in its transaction. */
export async function runAction(ctx: Ctx, requester: StaffActor, a: ApprovalAction, within: Within): Promise<void> {
  switch (a.kind) {
    case 'withdrawal':
      return reviewWithdrawal(ctx, requester, a.id, 'approved', null, within);
    case 'deposit':
      return reviewDeposit(ctx, requester, a.id, 'approved', null, a.overrideReason, within);
    case 'balance_adjustment':
      await adjustBalance(ctx, requester, a.balanceId, a.input, within);
      return;
    case 'trade_edit':
      await updateTrade(ctx, requester, a.id, a.input, within);
      return;
    case 'trade_void':
      return voidTrade(ctx, requester, a.id, within);
    case 'plan_change':
      return assignPlan(ctx, requester, a.userId, a.planId, within);
    case 'gateway_secrets':
      await updateGateway(ctx, requester, a.name, a.input, undefined, within);
      return;
  }
}

/** A customer's pricing plan set on its own (the plan part of PUT /admin/customers/{id}, once approved). */
async function assignPlan(
  ctx: Ctx,
  actor: StaffActor,
  userId: number,
  planId: number | null,
  within: Within,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await within(tx);
    const [u] = await tx
      .select({ id: users.id, plan: users.pricingTableId })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.roleId, 3), isNull(users.deletedAt)))
      .for('update');
    if (!u) throw new AppError('CUSTOMER_NOT_FOUND');
    if (planId !== null) {
      const [plan] = await tx.select({ id: pricingPlans.id }).from(pricingPlans).where(eq(pricingPlans.id, planId));
      if (!plan) throw new AppError('PLAN_NOT_FOUND');
    }
    await tx.update(users).set({ pricingTableId: planId }).where(eq(users.id, userId));
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: userId,
      action: 'customer.plan',
      before: { pricing_plan_id: u.plan },
      after: { pricing_plan_id: planId },
      ip: actor.ip,
    });
  });
  forgetTrader(ctx.db, userId);
}
