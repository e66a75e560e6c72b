import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';

/**
 * Each user's KYC state from their documents: approved once any document is approved (what trading checks), else
 * the latest submission's state (pending or declined).
 */
const statesOf = (where: SQL) => sql`
  select user_id,
         case when bool_or(status = 'approved') then 'approved'
              when (array_agg(status order by id desc))[1] in ('pending', 'declined') then (array_agg(status order by id desc))[1]
              else 'none' end as status
    from kyc_documents where ${where} group by user_id`;

/**
 * The KYC state the back-office lists show, sort and filter by (users.kyc_status, docs/decisions.md "Customer 360"),
 * read again from the user's documents. Called in the transaction of every submission and review.
 */
export async function syncKycListStatus(tx: DbOrTx, userId: number): Promise<void> {
  await tx.execute(sql`
    update users u set kyc_status = k.status from (${statesOf(sql`user_id = ${userId}`)}) k
     where u.id = k.user_id and u.kyc_status is distinct from k.status`);
}

/** Every user's KYC state read again (the migration's backfill), for documents written straight into the table. */
export async function recomputeKycListStatuses(db: DbOrTx): Promise<void> {
  await db.execute(sql`
    update users u set kyc_status = k.status from (${statesOf(sql`true`)}) k
     where u.id = k.user_id and u.kyc_status is distinct from k.status`);
}
