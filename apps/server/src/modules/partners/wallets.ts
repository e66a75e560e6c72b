import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { balances, partnerWallets } from '../../db/schema.ts';

/**
 * A partner's commission wallet in a currency: a real wallet of theirs (listed, withdrawn and audited like any
 * other), opened the first time a commission in that currency is credited. A transaction lock on partner and
 * currency makes two first commissions at once open one wallet.
 */
export async function commissionWallet(tx: DbOrTx, userId: number, currency: string): Promise<number> {
  const found = async () =>
    (
      await tx
        .select({ balanceId: partnerWallets.balanceId })
        .from(partnerWallets)
        .where(and(eq(partnerWallets.userId, userId), eq(partnerWallets.currency, currency)))
    )[0]?.balanceId;
  const known = await found();
  if (known) return known;
  await tx.execute(sql`select pg_advisory_xact_lock(${0x7077}::int, hashtext(${`${userId}:${currency}`}))`);
  const again = await found();
  if (again) return again;
  const [wallet] = await tx
    .insert(balances)
    .values({ userId, mode: 'real', currency, balance: '0' })
    .returning({ id: balances.id });
  await tx.insert(partnerWallets).values({ userId, currency, balanceId: wallet.id });
  return wallet.id;
}

/** A partner's commission wallets with their balances. */
export async function commissionWallets(
  db: DbOrTx,
  userId: number,
): Promise<Array<{ id: number; currency: string; balance: string }>> {
  return db
    .select({ id: balances.id, currency: balances.currency, balance: balances.balance })
    .from(partnerWallets)
    .innerJoin(balances, eq(balances.id, partnerWallets.balanceId))
    .where(eq(partnerWallets.userId, userId))
    .orderBy(balances.id);
}
