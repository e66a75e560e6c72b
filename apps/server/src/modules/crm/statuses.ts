import { and, count, desc, eq, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { PagedQuery, SalesStatusListResponse, SalesStatusRequest } from '@platform/domain';
import type { DbOrTx } from '../../db/client.ts';
import { leads, salesStatuses } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError, isUniqueViolation } from '../../lib/errors.ts';
import { offsetOf, pageMeta, searchAny } from '../../lib/paging.ts';
import type { StaffActor } from '../../lib/staff-scope.ts';

type Input = z.output<typeof SalesStatusRequest>;

/** The sales statuses every installation starts with; "New" is the default (back-office §9). */
export const DEFAULT_SALES_STATUSES = [
  'New',
  'Contacted',
  'Interested',
  'Not Interested',
  'Call Back',
  'No Answer',
] as const;

/** Base data: the statuses, once, when there are none. */
export async function seedSalesStatuses(db: DbOrTx): Promise<void> {
  const [{ n }] = await db.select({ n: count() }).from(salesStatuses);
  if (n > 0) return;
  await db
    .insert(salesStatuses)
    .values(DEFAULT_SALES_STATUSES.map((status, i) => ({ status, isDefault: i === 0 })))
    .onConflictDoNothing();
}

/** The default sales status (exactly one exists; the database enforces it). */
export async function defaultSalesStatus(tx: DbOrTx): Promise<string> {
  const [row] = await tx
    .select({ status: salesStatuses.status })
    .from(salesStatuses)
    .where(eq(salesStatuses.isDefault, true))
    .limit(1);
  if (!row) throw new AppError('SALES_STATUS_NOT_FOUND');
  return row.status;
}

/** GET /admin/crm-config/sales-statuses/api: statuses with how many leads have each (deleted leads included). */
export async function listSalesStatuses(db: DbOrTx, q: PagedQuery): Promise<SalesStatusListResponse> {
  const where = searchAny(q.search, [salesStatuses.status]);
  const [{ n }] = await db.select({ n: count() }).from(salesStatuses).where(where);
  const rows = await db
    .select({
      id: salesStatuses.id,
      status: salesStatuses.status,
      is_default: salesStatuses.isDefault,
      leads: sql<number>`(select count(*)::int from leads l where l.lead_status = ${salesStatuses.status})`,
    })
    .from(salesStatuses)
    .where(where)
    .orderBy(desc(salesStatuses.id))
    .limit(q.limit)
    .offset(offsetOf(q));
  return { data: rows.map((r) => ({ ...r, leads: Number(r.leads) })), meta: pageMeta(q, n) };
}

const taken = () => new AppError('SALES_STATUS_TAKEN', undefined, { status: 'This sales status already exists.' });

async function save(db: DbOrTx, actor: StaffActor, id: number | null, input: Input): Promise<void> {
  try {
    await db.transaction(async (tx) => {
      // One default at a time: serialise changes to it.
      await tx.execute(sql`lock table sales_statuses in share row exclusive mode`);
      const [before] =
        id === null ? [undefined] : await tx.select().from(salesStatuses).where(eq(salesStatuses.id, id));
      if (id !== null && !before) throw new AppError('SALES_STATUS_NOT_FOUND');
      if (before?.isDefault && !input.isDefault) throw new AppError('SALES_STATUS_DEFAULT');
      if (input.isDefault)
        await tx
          .update(salesStatuses)
          .set({ isDefault: false })
          .where(and(eq(salesStatuses.isDefault, true), id === null ? undefined : ne(salesStatuses.id, id)));
      // A rename follows to every lead with this status (foreign key ON UPDATE CASCADE).
      const [after] =
        id === null
          ? await tx.insert(salesStatuses).values({ status: input.status, isDefault: input.isDefault }).returning()
          : await tx
              .update(salesStatuses)
              .set({ status: input.status, isDefault: input.isDefault })
              .where(eq(salesStatuses.id, id))
              .returning();
      await writeAudit(tx, {
        actorId: actor.id,
        targetUserId: null,
        action: id === null ? 'sales_status.create' : 'sales_status.update',
        ip: actor.ip,
        before: before ? { status: before.status, is_default: before.isDefault } : null,
        after: { status: after.status, is_default: after.isDefault },
        subjectType: 'sales_status',
        subjectId: after.id,
      });
    });
  } catch (err) {
    if (isUniqueViolation(err, 'sales_statuses_status_unique')) throw taken();
    throw err;
  }
}

export const createSalesStatus = (db: DbOrTx, actor: StaffActor, input: Input) => save(db, actor, null, input);
export const updateSalesStatus = (db: DbOrTx, actor: StaffActor, id: number, input: Input) =>
  save(db, actor, id, input);

/**
 * DELETE /admin/crm-config/sales-statuses/{id}. The default cannot go, and neither can a status leads still have:
 * the 409 says how many, so staff move them to another status first (docs/decisions.md, CRM).
 */
export async function deleteSalesStatus(db: DbOrTx, actor: StaffActor, id: number): Promise<void> {
  await db
    .transaction(async (tx) => {
      await tx.execute(sql`lock table sales_statuses in share row exclusive mode`);
      const [row] = await tx.select().from(salesStatuses).where(eq(salesStatuses.id, id));
      if (!row) throw new AppError('SALES_STATUS_NOT_FOUND');
      if (row.isDefault) throw new AppError('SALES_STATUS_DEFAULT');
      const [{ n }] = await tx.select({ n: count() }).from(leads).where(eq(leads.leadStatus, row.status));
      if (n > 0)
        throw new AppError(
          'SALES_STATUS_IN_USE',
          `${n} ${n === 1 ? 'lead has' : 'leads have'} the status "${row.status}". Give them another status first.`,
        );
      await tx.delete(salesStatuses).where(eq(salesStatuses.id, id));
      await writeAudit(tx, {
        actorId: actor.id,
        targetUserId: null,
        action: 'sales_status.delete',
        ip: actor.ip,
        before: { status: row.status, is_default: row.isDefault },
        after: null,
        subjectType: 'sales_status',
        subjectId: id,
      });
    })
    .catch((err: unknown) => {
      // A lead given this status while the delete waited: the foreign key refuses, answered like any status in use.
      if (isForeignKeyViolation(err)) throw new AppError('SALES_STATUS_IN_USE');
      throw err;
    });
}

function isForeignKeyViolation(err: unknown): boolean {
  for (
    let e: unknown = err, depth = 0;
    e && typeof e === 'object' && depth < 4;
    e = (e as { cause?: unknown }).cause, depth++
  )
    if ((e as { code?: unknown }).code === '23503') return true;
  return false;
}
