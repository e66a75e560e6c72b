import { and, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { AuditEntryDto, AuditListResponse, AuditQuery } from '@platform/domain';
import type { DbOrTx } from '../../db/client.ts';
import { auditLogs, users } from '../../db/schema.ts';
import { escapeLike, offsetOf, pageMeta } from '../../lib/paging.ts';

type Query = z.output<typeof AuditQuery>;

const actors = alias(users, 'actor');
const targets = alias(users, 'target');
const contains = (s: string) => `%${escapeLike(s)}%`;
const isId = (s: string) => /^\d{1,9}$/.test(s);

/** The filters of the audit screen as SQL; every one is optional. */
function filterOf(q: Query): SQL | undefined {
  const parts: Array<SQL | undefined> = [];
  const actor = q.actor?.trim();
  if (actor) parts.push(isId(actor) ? eq(auditLogs.actorId, Number(actor)) : ilike(actors.email, contains(actor)));
  const subject = q.subject?.trim();
  if (subject) {
    const typed = /^([a-z_]+):(\d{1,9})$/i.exec(subject);
    if (typed) parts.push(and(eq(auditLogs.subjectType, typed[1]), eq(auditLogs.subjectId, Number(typed[2]))));
    else if (isId(subject))
      parts.push(or(eq(auditLogs.targetUserId, Number(subject)), eq(auditLogs.subjectId, Number(subject))));
    else parts.push(or(ilike(targets.email, contains(subject)), eq(auditLogs.subjectType, subject)));
  }
  const action = q.action?.trim();
  if (action) parts.push(or(eq(auditLogs.action, action), ilike(auditLogs.action, `${escapeLike(action)}.%`)));
  if (q.from) parts.push(sql`${auditLogs.createdAt} >= ${q.from}::date`);
  if (q.to) parts.push(sql`${auditLogs.createdAt} < ${q.to}::date + 1`);
  return and(...parts);
}

const person = (p: { id: number; email: string; fullName: string } | null) =>
  p ? { id: p.id, email: p.email, full_name: p.fullName } : null;

/** GET /admin/audit/api: newest first; also the CSV export's pages. */
export async function listAudit(db: DbOrTx, q: Query): Promise<AuditListResponse> {
  const where = filterOf(q);
  const base = () =>
    db
      .select({
        row: auditLogs,
        actor: { id: actors.id, email: actors.email, fullName: actors.fullName },
        target: { id: targets.id, email: targets.email, fullName: targets.fullName },
      })
      .from(auditLogs)
      .leftJoin(actors, eq(actors.id, auditLogs.actorId))
      .leftJoin(targets, eq(targets.id, auditLogs.targetUserId));
  const [rows, [{ n }]] = await Promise.all([
    base().where(where).orderBy(desc(auditLogs.id)).limit(q.limit).offset(offsetOf(q)),
    db
      .select({ n: count() })
      .from(auditLogs)
      .leftJoin(actors, eq(actors.id, auditLogs.actorId))
      .leftJoin(targets, eq(targets.id, auditLogs.targetUserId))
      .where(where),
  ]);
  const data: AuditEntryDto[] = rows.map(({ row, actor, target }) => ({
    id: row.id,
    created_at: row.createdAt.toISOString(),
    action: row.action,
    actor: person(actor),
    target: person(target),
    subject_type: row.subjectType,
    subject_id: row.subjectId,
    before: row.before,
    after: row.after,
    ip: row.ip,
  }));
  return { data, meta: pageMeta(q, n) };
}

/** Every action recorded so far, for the filter's choices. */
export async function auditActions(db: DbOrTx): Promise<string[]> {
  const rows = await db.selectDistinct({ action: auditLogs.action }).from(auditLogs).orderBy(auditLogs.action);
  return rows.map((r) => r.action);
}
