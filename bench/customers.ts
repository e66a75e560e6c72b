import { randomBytes } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../apps/server/src/db/client.ts';
import {
  balances,
  kycDocuments,
  ledgerEntries,
  pricingPlans,
  userProfiles,
  users,
} from '../apps/server/src/db/schema.ts';
import { hashPassword } from '../apps/server/src/lib/crypto.ts';

/** The password of every bench customer. */
export const PASSWORD = 'Bench12345!';

/** Customers as the product has them after sign-up, KYC approval and funding: Basic plan, active real wallet. */
export async function createCustomers(
  db: Db,
  count: number,
): Promise<Array<{ id: number; email: string; walletId: number }>> {
  let [plan] = await db
    .select({ id: pricingPlans.id })
    .from(pricingPlans)
    .where(eq(pricingPlans.name, 'Basic'))
    .limit(1);
  plan ??= (
    await db
      .insert(pricingPlans)
      .values({
        name: 'Basic',
        price: '0',
        forexLeverage: 100,
        commodityLeverage: 50,
        indexLeverage: 50,
        stockLeverage: 10,
        cryptoLeverage: 5,
        forexStopout: 50,
      })
      .returning({ id: pricingPlans.id })
  )[0];
  const passwordHash = await hashPassword(PASSWORD);
  const tag = randomBytes(3).toString('hex');
  const created: Array<{ id: number; email: string; walletId: number }> = [];
  for (let start = 0; start < count; start += 100) {
    const n = Math.min(100, count - start);
    await db.transaction(async (tx) => {
      const rows = await tx
        .insert(users)
        .values(
          Array.from({ length: n }, (_, k) => ({
            fullName: `Bench Trader ${start + k + 1}`,
            email: `bench-${tag}-${start + k + 1}@example.test`,
            passwordHash,
            roleId: 3,
            isEmailVerified: true,
            pricingTableId: plan.id,
          })),
        )
        .returning({ id: users.id, email: users.email });
      await tx.insert(userProfiles).values(
        rows.map((u) => ({
          userId: u.id,
          phone: '+44 20 7946 0000',
          birthDate: '1990-01-01',
          country: 'United Kingdom',
          city: 'London',
          address: '1 Bench Street',
          postalCode: 'EC1A 1BB',
        })),
      );
      const wallets = await tx
        .insert(balances)
        .values(rows.map((u) => ({ userId: u.id, mode: 'real', currency: 'USD', balance: '1000000000' })))
        .returning({ id: balances.id, userId: balances.userId, balance: balances.balance });
      await tx.insert(ledgerEntries).values(
        wallets.map((w) => ({
          balanceId: w.id,
          kind: 'deposit',
          amount: w.balance,
          balanceAfter: w.balance,
          note: 'Bench funding',
        })),
      );
      await tx.execute(
        sql`update ${users} set active_balance_id = b.id from ${balances} b where b.user_id = ${users.id} and ${inArray(
          users.id,
          rows.map((u) => u.id),
        )}`,
      );
      await tx.insert(kycDocuments).values(rows.map((u) => ({ userId: u.id, type: 'passport', status: 'approved' })));
      const byUser = new Map(wallets.map((w) => [w.userId, w.id]));
      for (const u of rows) created.push({ ...u, walletId: byUser.get(u.id)! });
    });
  }
  return created;
}
