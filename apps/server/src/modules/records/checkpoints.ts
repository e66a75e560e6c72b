import { count, desc, eq } from 'drizzle-orm';
import type { RecordsCheckpoint, StoredCheckpointDto, StoredCheckpointsResponse } from '@platform/domain';
import type { DbOrTx } from '../../db/client.ts';
import { recordsCheckpoints } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { offsetOf } from '../../lib/paging.ts';
import { checkpoint } from './verify.ts';

/** The UTC day of a moment, YYYY-MM-DD: the daily checkpoint's key. */
export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

/**
 * The job `records.checkpoint` (hourly): stores today's checkpoint of the chain heads unless it is stored already.
 * The day is the key: the unique index settles two instances (or a retry) racing on the same day, so exactly one row
 * is kept and the other insert does nothing. Hourly rather than once at midnight, so a day whose midnight run was
 * missed (every instance down) still gets its checkpoint at the next hour. True when this call stored it.
 */
export async function storeDailyCheckpoint(
  db: DbOrTx,
  signingKey: string | undefined,
  now = new Date(),
): Promise<boolean> {
  const day = dayOf(now);
  const [have] = await db
    .select({ id: recordsCheckpoints.id })
    .from(recordsCheckpoints)
    .where(eq(recordsCheckpoints.day, day))
    .limit(1);
  if (have) return false;
  const cp = await checkpoint(db, signingKey);
  const stored = await db
    .insert(recordsCheckpoints)
    .values({
      day,
      at: new Date(cp.at),
      auditSeq: cp.audit.seq,
      wallets: cp.ledger.length,
      signed: cp.signature !== null,
      body: cp,
    })
    .onConflictDoNothing({ target: recordsCheckpoints.day })
    .returning({ id: recordsCheckpoints.id });
  return stored.length === 1;
}

/** GET /admin/records/checkpoints: the stored checkpoints, newest day first (without their heads). */
export async function listCheckpoints(
  db: DbOrTx,
  q: { page: number; limit: number },
): Promise<StoredCheckpointsResponse> {
  const rows = await db
    .select({
      id: recordsCheckpoints.id,
      day: recordsCheckpoints.day,
      at: recordsCheckpoints.at,
      auditSeq: recordsCheckpoints.auditSeq,
      wallets: recordsCheckpoints.wallets,
      signed: recordsCheckpoints.signed,
    })
    .from(recordsCheckpoints)
    .orderBy(desc(recordsCheckpoints.day))
    .limit(q.limit)
    .offset(offsetOf(q));
  const [{ n }] = await db.select({ n: count() }).from(recordsCheckpoints);
  return {
    data: rows.map(
      (r): StoredCheckpointDto => ({
        id: r.id,
        day: r.day,
        at: r.at.toISOString(),
        audit_seq: r.auditSeq,
        wallets: r.wallets,
        signed: r.signed,
      }),
    ),
    meta: { total: n, per_page: q.limit, page: q.page },
  };
}

/** GET /admin/records/checkpoints/{id}: one stored checkpoint as it was exported (the JSON file an auditor keeps). */
export async function storedCheckpoint(db: DbOrTx, id: number): Promise<{ day: string; body: RecordsCheckpoint }> {
  const [row] = await db
    .select({ day: recordsCheckpoints.day, body: recordsCheckpoints.body })
    .from(recordsCheckpoints)
    .where(eq(recordsCheckpoints.id, id))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', 'Checkpoint not found.');
  return { day: row.day, body: row.body as RecordsCheckpoint };
}
