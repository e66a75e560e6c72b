import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import type { DepositRow } from './records.ts';

/**
 * A customer's first deposit (FTD) as the back-office lists show, sort and filter it: the first approved deposit's
 * time and amount, kept on the user row (docs/decisions.md "Customer 360"). Called in the approval's transaction, so
 * the list never sees an approved deposit without its FTD; a later approval leaves it as it was.
 */
export async function recordFirstDeposit(tx: DbOrTx, deposit: DepositRow): Promise<void> {
  await tx
    .update(users)
    .set({
      ftdAt: deposit.reviewedAt ?? deposit.createdAt,
      ftdAmount: deposit.amount,
      ftdCurrency: deposit.currency,
    })
    .where(and(eq(users.id, deposit.userId), isNull(users.ftdAt)));
}

/**
 * Every customer's first deposit read again from their approved deposits, in one statement: the migration's backfill,
 * for data written straight into the deposits table (the demo's month of activity, benchmarks).
 */
export async function recomputeFirstDeposits(db: DbOrTx): Promise<void> {
  await db.execute(sql`
    update users u set ftd_at = f.at, ftd_amount = f.amount, ftd_currency = f.currency
      from (select distinct on (user_id) user_id, coalesce(reviewed_at, created_at) as at, amount, currency
              from deposits where status = 'approved' order by user_id, coalesce(reviewed_at, created_at), id) f
     where u.id = f.user_id and u.ftd_at is distinct from f.at`);
}
