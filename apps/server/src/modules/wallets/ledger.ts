import { and, eq, sql } from 'drizzle-orm';
import { dec } from '@platform/domain';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { balances, ledgerEntries } from '../../db/schema.ts';
import { tradingMemoryOf } from '../trading/trading-memory.ts';

/** Why a wallet's balance moved; every movement is one ledger entry in the transaction that moves it. */
export type LedgerKind =
  | 'deposit'
  | 'withdrawal_hold'
  | 'withdrawal_release'
  | 'withdrawal_payout'
  | 'plan_charge'
  | 'adjustment'
  /** A rollover's swap or swap-free fee on a position (written by the rollover's batch statement). */
  | 'swap'
  /** A partner's commission on a client's deal or first deposit, or its reversal (modules/partners). */
  | 'partner_commission';

export interface Movement {
  balanceId: number;
  /** Signed decimal string: positive credits the wallet, negative debits it. */
  amount: string;
  kind: LedgerKind;
  refType: 'deposit' | 'withdrawal' | 'plan' | 'staff' | 'order';
  refId: number | null;
  actorId: number | null;
  note: string;
  /**
   * For a debit: the wallet must still cover its open positions afterwards, i.e. balance − margin + min(live P/L, 0)
   * stays at or above the debit. Pass the live P/L of the wallet (0 when it has no positions).
   */
  freeFundsWithPl?: string;
}

export interface Moved {
  balanceAfter: string;
  userId: number;
  currency: string;
  mode: string;
}

/**
 * Moves money on a wallet inside the caller's transaction: one conditional UPDATE (it locks the row, so concurrent
 * debits are checked one after another against the committed balance) and its ledger entry with the balance after.
 * Returns null, changing nothing, when a debit is not covered by the free funds.
 */
export async function moveMoney(tx: DbOrTx, m: Movement): Promise<Moved | null> {
  const amount = dec(m.amount);
  const guards = [eq(balances.id, m.balanceId)];
  if (amount.isNegative()) {
    const pl = dec(m.freeFundsWithPl ?? '0');
    const plAllowance = pl.isNegative() ? pl.toFixed(8) : '0';
    guards.push(
      sql`${balances.balance} - ${balances.margin} + ${plAllowance}::numeric + ${amount.toFixed(8)}::numeric >= 0`,
    );
  }
  const [row] = await tx
    .update(balances)
    .set({ balance: sql`${balances.balance} + ${amount.toFixed(8)}::numeric` })
    .where(and(...guards))
    .returning({
      balance: balances.balance,
      userId: balances.userId,
      currency: balances.currency,
      mode: balances.mode,
    });
  if (!row) return null;
  await writeEntry(tx, m, row.balance);
  return { balanceAfter: row.balance, userId: row.userId, currency: row.currency, mode: row.mode };
}

/** A ledger entry that records an event on a wallet without moving its balance (a payout of money already held). */
export async function recordEntry(tx: DbOrTx, m: Omit<Movement, 'amount' | 'freeFundsWithPl'>): Promise<string> {
  const [row] = await tx
    .select({ balance: balances.balance })
    .from(balances)
    .where(eq(balances.id, m.balanceId))
    .for('update');
  await writeEntry(tx, { ...m, amount: '0' }, row.balance);
  return row.balance;
}

async function writeEntry(tx: DbOrTx, m: Movement, balanceAfter: string): Promise<void> {
  await tx.insert(ledgerEntries).values({
    balanceId: m.balanceId,
    kind: m.kind,
    amount: dec(m.amount).toFixed(8),
    balanceAfter,
    refType: m.refType,
    refId: m.refId,
    actorId: m.actorId,
    note: m.note,
  });
}

/**
 * Runs a change of a wallet's money in this process's queue of that wallet, after the orders placed or closed on it
 * before, so the risk engine's view of the balance follows the commits in order; tells the engine the new balance.
 */
export async function onWallet<T>(
  ctx: Pick<AppContext, 'db' | 'risk'>,
  walletId: number,
  change: () => Promise<T & { walletBalance?: string | null }>,
): Promise<T> {
  const result = await tradingMemoryOf(ctx.db).walletQueue.run(walletId, change);
  if (result.walletBalance) ctx.risk.balanceChanged(walletId, result.walletBalance);
  return result;
}

/** Live P/L of a wallet's open positions as a decimal string (what a debit must leave covered). */
export const livePlOf = (ctx: Pick<AppContext, 'risk'>, walletId: number): string =>
  dec(ctx.risk.unrealizedPl(walletId) || 0).toFixed(8);
