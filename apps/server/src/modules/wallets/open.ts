import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { balances, ledgerEntries, users } from '../../db/schema.ts';

/**
 * A new customer's wallets, as sign-up and the back office's add-customer both open them: a real wallet at 0 and a
 * demo wallet funded with the demo initial balance (with its ledger entry), the demo wallet active so the customer
 * can try the platform before funding. Runs inside the caller's transaction.
 */
export async function openCustomerWallets(
  tx: DbOrTx,
  userId: number,
  currency: string,
  demoAmount: string,
): Promise<{ realId: number; demoId: number }> {
  const [real, demo] = await tx
    .insert(balances)
    .values([
      { userId, mode: 'real', currency, balance: '0' },
      { userId, mode: 'demo', currency, balance: demoAmount },
    ])
    .returning({ id: balances.id });
  if (Number(demoAmount) > 0)
    await tx.insert(ledgerEntries).values({
      balanceId: demo.id,
      kind: 'demo_funding',
      amount: demoAmount,
      balanceAfter: demoAmount,
      note: 'Demo wallet initial balance',
    });
  await tx.update(users).set({ activeBalanceId: demo.id }).where(eq(users.id, userId));
  return { realId: real.id, demoId: demo.id };
}
