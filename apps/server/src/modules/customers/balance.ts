import { and, eq, isNull } from 'drizzle-orm';
import { dec, type BalanceAdjustRequest } from '@platform/domain';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { balances, users } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import { customerScope, type StaffActor } from '../../lib/staff-scope.ts';
import { livePlOf, moveMoney, onWallet } from '../wallets/ledger.ts';

type Ctx = Pick<AppContext, 'db' | 'risk'>;

/**
 * PUT /admin/balance/{balanceId}: a staff adjustment of a customer's wallet through the ledger (kind `adjustment`,
 * the reason as its note, the staff member as actor), in one transaction with its audit row, in the wallet's queue
 * so the risk engine learns the new balance in order. A subtraction must leave the wallet at or above zero and still
 * covering the margin and any live loss of its open positions (400 otherwise); concurrent subtractions are checked
 * one after another by the conditional update.
 */
export async function adjustBalance(
  ctx: Ctx,
  actor: StaffActor,
  balanceId: number,
  input: z.output<typeof BalanceAdjustRequest>,
  /** Runs first in the adjustment's transaction (a four-eyes approval claims its request there). */
  within?: (tx: DbOrTx) => Promise<void>,
): Promise<string> {
  const [wallet] = await ctx.db
    .select({ id: balances.id, userId: balances.userId, currency: balances.currency, mode: balances.mode })
    .from(balances)
    .innerJoin(users, eq(users.id, balances.userId))
    .where(
      and(
        eq(balances.id, balanceId),
        eq(users.roleId, 3),
        isNull(users.deletedAt),
        customerScope(actor, balances.userId),
      ),
    )
    .limit(1);
  if (!wallet) throw new AppError('WALLET_NOT_FOUND');
  const amount = input.type === 'add' ? dec(input.amount) : dec(input.amount).negated();
  const { balance } = await onWallet(ctx, wallet.id, async () => {
    const moved = await ctx.db.transaction(async (tx) => {
      if (within) await within(tx);
      const m = await moveMoney(tx, {
        balanceId: wallet.id,
        amount: amount.toFixed(8),
        kind: 'adjustment',
        refType: 'staff',
        refId: actor.id,
        actorId: actor.id,
        note: input.reason,
        freeFundsWithPl: livePlOf(ctx, wallet.id),
      });
      if (!m)
        throw new AppError('ADJUSTMENT_NOT_COVERED', undefined, {
          amount: 'The wallet cannot go below zero or below the margin its open positions hold.',
        });
      await writeAudit(tx, {
        actorId: actor.id,
        targetUserId: wallet.userId,
        action: 'balance.adjust',
        before: { balance_id: wallet.id, balance: dec(m.balanceAfter).minus(amount).toFixed(8) },
        after: {
          balance_id: wallet.id,
          balance: m.balanceAfter,
          type: input.type,
          amount: input.amount,
          reason: input.reason,
        },
        ip: actor.ip,
      });
      return m;
    });
    return { balance: moved.balanceAfter, walletBalance: moved.balanceAfter };
  });
  return balance;
}
