import { and, eq } from 'drizzle-orm';
import { formatMoney, type NotificationDto } from '@platform/domain';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { deposits } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import { customerScope, type StaffActor } from '../../lib/staff-scope.ts';
import { emitAll, insertNotification, insertStaffNotifications } from '../notifications/service.ts';
import { moveMoney, onWallet } from '../wallets/ledger.ts';
import { recordFirstDeposit } from './first-deposit.ts';
import { awaitsProof, gatewayName, type DepositRow } from './records.ts';

type Ctx = Pick<AppContext, 'db' | 'risk' | 'realtime'>;

export interface Settlement {
  outcome: 'approved' | 'declined';
  /** Staff member who decided, or null for a provider's confirmation. */
  actorId: number | null;
  ip?: string | null;
  reason?: string | null;
  /** What confirmed it, for the audit log (e.g. "stripe event evt_1"). */
  source: string;
  /** Why staff approved a bank deposit that has no transfer details or proof yet (audited). */
  override?: string;
}

/**
 * Moves a pending deposit to approved or declined, once: one conditional UPDATE (… WHERE status = 'pending'), and on
 * approval the wallet credit and its ledger entry, in one transaction. Two staff, a double click or a replayed
 * callback find it no longer pending and change nothing. Returns the deposit as settled, or null when it was not
 * pending any more.
 */
export async function settleDeposit(
  ctx: Ctx,
  tx: DbOrTx,
  deposit: DepositRow,
  s: Settlement,
): Promise<{
  row: DepositRow;
  walletBalance: string | null;
  notices: Array<{ userId: number; dto: NotificationDto }>;
} | null> {
  const [row] = await tx
    .update(deposits)
    .set({
      status: s.outcome,
      reviewedBy: s.actorId,
      reviewedAt: new Date(),
      declineReason: s.outcome === 'declined' ? (s.reason ?? null) : null,
    })
    .where(and(eq(deposits.id, deposit.id), eq(deposits.status, 'pending')))
    .returning();
  if (!row) return null;
  let walletBalance: string | null = null;
  let settled = row;
  if (s.outcome === 'approved') {
    const moved = await moveMoney(tx, {
      balanceId: row.balanceId,
      amount: row.amount,
      kind: 'deposit',
      refType: 'deposit',
      refId: row.id,
      actorId: s.actorId,
      note: `Deposit #${row.id} by ${gatewayName(row.gateway)}`,
    });
    if (!moved) throw new Error(`wallet ${row.balanceId} of deposit ${row.id} is gone`);
    walletBalance = moved.balanceAfter;
    [settled] = await tx
      .update(deposits)
      .set({ balanceAfter: moved.balanceAfter })
      .where(eq(deposits.id, row.id))
      .returning();
    await recordFirstDeposit(tx, settled);
  }
  await writeAudit(tx, {
    actorId: s.actorId,
    targetUserId: row.userId,
    action: `deposit.${s.outcome === 'approved' ? 'approve' : 'decline'}`,
    before: { id: row.id, status: 'pending', amount: row.amount, total: row.total },
    after: {
      id: row.id,
      status: s.outcome,
      source: s.source,
      balanceAfter: walletBalance,
      reason: s.reason ?? null,
      ...(s.override ? { overrideWithoutProof: s.override } : {}),
    },
    ip: s.ip ?? null,
  });
  const amount = formatMoney(row.amount, row.currency);
  const dto = await insertNotification(
    tx,
    row.userId,
    s.outcome === 'approved'
      ? {
          title: 'Deposit approved',
          description: `${amount} was credited to your ${row.currency} wallet.`,
          url: '/deposits',
        }
      : {
          title: 'Deposit declined',
          description: s.reason
            ? `Your deposit of ${amount} was declined: ${s.reason}`
            : `Your deposit of ${amount} was declined.`,
          url: '/deposits',
        },
  );
  const notices = [{ userId: row.userId, dto }];
  if (s.actorId === null && s.outcome === 'approved') {
    notices.push(
      ...(await insertStaffNotifications(
        tx,
        row.userId,
        {
          title: 'Deposit received',
          description: `${amount} by ${gatewayName(row.gateway)} (#${row.id})`,
          url: '/admin/deposits',
        },
        true,
      )),
    );
  }
  return { row: settled, walletBalance, notices };
}

/** Runs a settlement in its own transaction, in the wallet's queue, and tells the client and the engine after the commit. */
export async function settleInTransaction(
  ctx: Ctx,
  deposit: DepositRow,
  s: Settlement,
  /** Runs first in the settlement's transaction (a four-eyes approval claims its request there). */
  within?: (tx: DbOrTx) => Promise<void>,
): Promise<DepositRow | null> {
  const result = await onWallet(ctx, deposit.balanceId, async () => {
    const r = await ctx.db.transaction(async (tx) => {
      if (within) await within(tx);
      const settled = await settleDeposit(ctx, tx, deposit, s);
      // A claimed approval must not commit when the deposit was settled meanwhile.
      if (!settled && within) throw new AppError('ALREADY_REVIEWED', 'This deposit was already reviewed.');
      return settled;
    });
    return { r, walletBalance: r?.walletBalance ?? null };
  });
  if (!result.r) return null;
  emitAll(ctx, result.r.notices);
  return result.r.row;
}

/**
 * POST /admin/deposits/{id}/approve and /decline: a deposit in the staff member's scope, pending only. A bank deposit
 * whose client has not yet sent the transfer details and proof is approved only with an override reason, which the
 * audit entry keeps (the money may not have arrived: the proof is what staff check the bank statement against).
 */
export async function reviewDeposit(
  ctx: Ctx,
  actor: StaffActor,
  id: number,
  outcome: 'approved' | 'declined',
  reason?: string | null,
  overrideReason?: string,
  within?: (tx: DbOrTx) => Promise<void>,
): Promise<void> {
  const [deposit] = await ctx.db
    .select()
    .from(deposits)
    .where(and(eq(deposits.id, id), customerScope(actor, deposits.userId)))
    .limit(1);
  if (!deposit) throw new AppError('DEPOSIT_NOT_FOUND');
  if (deposit.status !== 'pending')
    throw new AppError('ALREADY_REVIEWED', `This deposit was already ${deposit.status}.`);
  const withoutProof = awaitsProof(deposit);
  if (outcome === 'approved' && withoutProof && !overrideReason) throw new AppError('DEPOSIT_AWAITS_PROOF');
  const settled = await settleInTransaction(
    ctx,
    deposit,
    {
      outcome,
      actorId: actor.id,
      ip: actor.ip,
      reason: reason ?? null,
      source: `staff #${actor.id}`,
      override: outcome === 'approved' && withoutProof ? overrideReason : undefined,
    },
    within,
  );
  if (!settled) {
    const [now] = await ctx.db.select({ status: deposits.status }).from(deposits).where(eq(deposits.id, id));
    throw new AppError('ALREADY_REVIEWED', `This deposit was already ${now?.status ?? 'reviewed'}.`);
  }
}
