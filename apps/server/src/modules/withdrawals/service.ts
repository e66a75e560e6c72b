import { and, count, desc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import {
  Decimal,
  dec,
  formatMoney,
  type MoneyHistoryResponse,
  type MoneyRecordDto,
  type NotificationDto,
  type PagedQuery,
  type WithdrawFeesResponse,
  type WithdrawRequest,
  type WithdrawSettingsRequest,
} from '@platform/domain';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { balances, users, withdrawals } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import { escapeLike, offsetOf, pageMeta } from '../../lib/paging.ts';
import { customerScope, type StaffActor } from '../../lib/staff-scope.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { checkKycForWithdraw, ownRealWallet } from '../deposits/service.ts';
import { emitAll, insertNotification, insertStaffNotifications } from '../notifications/service.ts';
import { getSettingsCached, invalidateSettingsCache, putSetting } from '../settings/service.ts';
import { livePlOf, moveMoney, onWallet, recordEntry } from '../wallets/ledger.ts';

type Ctx = Pick<AppContext, 'db' | 'risk' | 'realtime'>;
type WithdrawalRow = typeof withdrawals.$inferSelect;
type Notices = Array<{ userId: number; dto: NotificationDto }>;

/** The withdraw settings record: value1 fee percent, value2 fixed fee. */
export async function withdrawFees(db: DbOrTx): Promise<WithdrawFeesResponse> {
  const row = (await getSettingsCached(db, ['withdraw'])).withdraw;
  const pct = row?.value1 && /^\d+(\.\d+)?$/.test(row.value1) ? row.value1 : '0';
  const fixed = row?.value2 && /^\d+(\.\d+)?$/.test(row.value2) ? row.value2 : '0';
  return { percentage: pct, fixed };
}

/** Withdraw fee = percentage/100 × amount + fixed, to the cent (half up) (client-area §9). */
export const withdrawFee = (amount: string, fees: WithdrawFeesResponse): string =>
  dec(amount).mul(fees.percentage).div(100).add(fees.fixed).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);

/** POST /admin/withdraws/settings. */
export async function updateWithdrawSettings(
  ctx: Pick<AppContext, 'db'>,
  actor: StaffActor,
  input: z.output<typeof WithdrawSettingsRequest>,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const before = await withdrawFees(tx);
    await putSetting(tx, 'withdraw', { value1: input.feePercentage, value2: input.feeFixed });
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: null,
      action: 'withdraw_settings.update',
      before: { ...before },
      after: { percentage: input.feePercentage, fixed: input.feeFixed },
      ip: actor.ip,
    });
  });
  invalidateSettingsCache();
}

/**
 * POST /withdraws/bank: the total (amount + fee) leaves the wallet's balance into the request at once (the hold),
 * in one conditional update that requires the wallet to keep covering its open positions (balance − margin +
 * any live loss). Concurrent requests are checked one after another against the committed balance, so the wallet
 * is never overdrawn. The payout goes to an account in the client's own name.
 */
export async function requestWithdrawal(
  ctx: Ctx,
  user: SessionUser,
  input: z.output<typeof WithdrawRequest>,
  impersonated: boolean,
): Promise<string> {
  if (impersonated) throw new AppError('IMPERSONATION_FORBIDDEN');
  await checkKycForWithdraw(ctx as AppContext, user.id);
  const wallet = await ownRealWallet(ctx, user.id, input.balance_id);
  const fees = await withdrawFees(ctx.db);
  const fee = withdrawFee(input.amount, fees);
  const total = dec(input.amount).add(fee).toFixed(2);
  const result = await onWallet(ctx, wallet.id, () =>
    ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(withdrawals)
        .values({
          userId: user.id,
          balanceId: wallet.id,
          amount: input.amount,
          fee,
          total,
          currency: wallet.currency,
          bankName: input.bank_name,
          accountName: user.fullName.slice(0, 120),
          accountNumber: input.account_number,
          swiftCode: input.swift_code,
          bankCountry: input.bank_country,
          balanceAfter: '0',
        })
        .returning();
      const moved = await moveMoney(tx, {
        balanceId: wallet.id,
        amount: `-${total}`,
        kind: 'withdrawal_hold',
        refType: 'withdrawal',
        refId: row.id,
        actorId: user.id,
        note: `Withdrawal #${row.id} requested`,
        freeFundsWithPl: livePlOf(ctx, wallet.id),
      });
      if (!moved) throw new AppError('INSUFFICIENT_FUNDS');
      await tx.update(withdrawals).set({ balanceAfter: moved.balanceAfter }).where(eq(withdrawals.id, row.id));
      const notices = await insertStaffNotifications(
        tx,
        user.id,
        {
          title: 'New withdrawal request',
          description: `${user.fullName}: ${formatMoney(total, wallet.currency)} to ${input.bank_name} (#${row.id})`,
          url: '/admin/withdraws/pending',
        },
        true,
      );
      return { notices, walletBalance: moved.balanceAfter };
    }),
  );
  emitAll(ctx, result.notices);
  return 'Withdrawal request submitted. The amount is held until it is paid out.';
}

/**
 * POST /admin/withdraws/{id}/approve and /decline: pending → approved (the held total is paid out) or declined (it
 * returns to the wallet), once, with the ledger entry in the same transaction.
 */
export async function reviewWithdrawal(
  ctx: Ctx,
  actor: StaffActor,
  id: number,
  outcome: 'approved' | 'declined',
  reason?: string | null,
  /** Runs first in the review's transaction (a four-eyes approval claims its request there); throwing undoes all. */
  within?: (tx: DbOrTx) => Promise<void>,
): Promise<void> {
  const [w] = await ctx.db
    .select()
    .from(withdrawals)
    .where(and(eq(withdrawals.id, id), customerScope(actor, withdrawals.userId)))
    .limit(1);
  if (!w) throw new AppError('WITHDRAWAL_NOT_FOUND');
  if (w.status !== 'pending') throw new AppError('ALREADY_REVIEWED', `This withdrawal was already ${w.status}.`);
  const result = await onWallet(ctx, w.balanceId, () =>
    ctx.db.transaction(async (tx) => {
      if (within) await within(tx);
      const [row] = await tx
        .update(withdrawals)
        .set({
          status: outcome,
          reviewedBy: actor.id,
          reviewedAt: new Date(),
          declineReason: outcome === 'declined' ? reason?.trim() || null : null,
        })
        .where(and(eq(withdrawals.id, id), eq(withdrawals.status, 'pending')))
        .returning();
      // Thrown, not returned: a claimed approval must not commit when the withdrawal was reviewed meanwhile.
      if (!row) throw new AppError('ALREADY_REVIEWED', 'This withdrawal was already reviewed.');
      let walletBalance: string | null = null;
      if (outcome === 'declined') {
        const moved = await moveMoney(tx, {
          balanceId: row.balanceId,
          amount: row.total,
          kind: 'withdrawal_release',
          refType: 'withdrawal',
          refId: row.id,
          actorId: actor.id,
          note: `Withdrawal #${row.id} declined: hold released`,
        });
        walletBalance = moved?.balanceAfter ?? null;
      } else {
        await recordEntry(tx, {
          balanceId: row.balanceId,
          kind: 'withdrawal_payout',
          refType: 'withdrawal',
          refId: row.id,
          actorId: actor.id,
          note: `Withdrawal #${row.id} paid out: ${row.total} ${row.currency} to ${row.bankName}`,
        });
      }
      await writeAudit(tx, {
        actorId: actor.id,
        targetUserId: row.userId,
        action: `withdrawal.${outcome === 'approved' ? 'approve' : 'decline'}`,
        before: { id: row.id, status: 'pending', total: row.total },
        after: { id: row.id, status: outcome, reason: row.declineReason, balanceAfter: walletBalance },
        ip: actor.ip,
      });
      const amount = formatMoney(row.amount, row.currency);
      const dto = await insertNotification(
        tx,
        row.userId,
        outcome === 'approved'
          ? {
              title: 'Withdrawal approved',
              description: `${amount} is on its way to ${row.bankName}.`,
              url: '/withdraws',
            }
          : {
              title: 'Withdrawal declined',
              description: row.declineReason
                ? `Your withdrawal of ${amount} was declined: ${row.declineReason}`
                : `Your withdrawal of ${amount} was declined; the amount is back in your wallet.`,
              url: '/withdraws',
            },
      );
      return { notices: [{ userId: row.userId, dto }] as Notices, walletBalance };
    }),
  );
  emitAll(ctx, result.notices);
}

function withdrawalDto(
  w: WithdrawalRow,
  b: { id: number; currency: string; mode: string },
  u: { id: number; email: string; fullName: string },
): MoneyRecordDto {
  return {
    id: w.id,
    created_at: w.createdAt.toISOString(),
    amount: w.amount,
    fee: w.fee,
    total: w.total,
    balance: b,
    balance_after: w.balanceAfter,
    gateway: 'Bank',
    status: w.status as MoneyRecordDto['status'],
    description: `${w.bankName}, ${w.accountName}, ${w.accountNumber}`,
    reference: null,
    proof: null,
    decline_reason: w.declineReason,
    formattedDescription: {
      bankName: w.bankName,
      accountName: w.accountName,
      accountNumber: w.accountNumber,
      swiftCode: w.swiftCode,
      bankCountry: w.bankCountry,
    },
    user: { id: u.id, email: u.email, full_name: u.fullName },
    reviewed_at: w.reviewedAt?.toISOString() ?? null,
  };
}

/** A page of withdrawals matching `where`, newest first. */
export async function withdrawalPage(db: DbOrTx, where: SQL | undefined, q: PagedQuery): Promise<MoneyHistoryResponse> {
  const s = q.search?.trim();
  const pattern = `%${escapeLike(s ?? '')}%`;
  const customers = db
    .select({ id: users.id })
    .from(users)
    .where(or(ilike(users.email, pattern), ilike(users.fullName, pattern)));
  const search = s ? inArray(withdrawals.userId, customers) : undefined;
  const filter = and(where, search);
  const rows = await db
    .select({
      w: withdrawals,
      b: { id: balances.id, currency: balances.currency, mode: balances.mode },
      u: { id: users.id, email: users.email, fullName: users.fullName },
    })
    .from(withdrawals)
    .innerJoin(balances, eq(balances.id, withdrawals.balanceId))
    .innerJoin(users, eq(users.id, withdrawals.userId))
    .where(filter)
    .orderBy(desc(withdrawals.id))
    .limit(q.limit)
    .offset(offsetOf(q));
  const [{ n }] = await db
    .select({ n: count() })
    .from(withdrawals)
    .innerJoin(users, eq(users.id, withdrawals.userId))
    .where(filter);
  return { data: rows.map((r) => withdrawalDto(r.w, r.b, r.u)), meta: pageMeta(q, n) };
}

export const withdrawalsOfUser = (userId: number) => eq(withdrawals.userId, userId);
export const pendingWithdrawals = eq(withdrawals.status, 'pending');
export const withdrawalScope = (actor: StaffActor) => customerScope(actor, withdrawals.userId);
