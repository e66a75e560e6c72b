import type { DbOrTx } from '../db/client.ts';
import { auditLogs } from '../db/schema.ts';

export interface AuditEntry {
  actorId: number | null;
  targetUserId: number | null;
  /** Dotted verb, e.g. `staff.update`, `customer.login_as`. */
  action: string;
  /** Snapshots of what changed; callers pass plain data and never secrets (password hashes, tokens). */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  ip?: string | null;
  /** What was touched when it is not (only) a user, e.g. 'lead', and its id. */
  subjectType?: string | null;
  subjectId?: number | null;
}

/** Writes one audit row; pass the transaction of the change so the record and the change commit together. */
export async function writeAudit(db: DbOrTx, entry: AuditEntry): Promise<void> {
  await db.insert(auditLogs).values({
    actorId: entry.actorId,
    targetUserId: entry.targetUserId,
    action: entry.action,
    before: entry.before ?? null,
    after: entry.after ?? null,
    ip: entry.ip?.slice(0, 64) ?? null,
    subjectType: entry.subjectType ?? null,
    subjectId: entry.subjectId ?? null,
  });
}
