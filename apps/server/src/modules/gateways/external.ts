import { count, desc, eq, ilike, or } from 'drizzle-orm';
import type { ExternalPaymentDto, PagedQuery, ExternalPaymentRequest } from '@platform/domain';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { externalPayments } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import type { UploadedFile } from '../../lib/multipart.ts';
import { escapeLike, offsetOf, pageMeta } from '../../lib/paging.ts';
import type { StaffActor } from '../../lib/staff-scope.ts';
import { fileUrl, prepareFile, recordFile } from '../files/storage.ts';

type Row = typeof externalPayments.$inferSelect;
type Input = z.output<typeof ExternalPaymentRequest>;

const dto = (e: Row): ExternalPaymentDto => ({
  id: e.id,
  logo: fileUrl(e.logoFileId),
  name: e.name,
  link: e.link,
  custom_label: e.customLabel,
  custom_value: e.customValue,
});
const auditOf = (e: Row) => ({
  id: e.id,
  name: e.name,
  link: e.link,
  customLabel: e.customLabel,
  customValue: e.customValue,
  logoFileId: e.logoFileId,
});

/** GET /admin/externalPayments/api. */
export async function listExternalPayments(ctx: Pick<AppContext, 'db'>, q: PagedQuery) {
  const s = q.search?.trim();
  const where = s
    ? or(ilike(externalPayments.name, `%${escapeLike(s)}%`), ilike(externalPayments.link, `%${escapeLike(s)}%`))
    : undefined;
  const rows = await ctx.db
    .select()
    .from(externalPayments)
    .where(where)
    .orderBy(desc(externalPayments.id))
    .limit(q.limit)
    .offset(offsetOf(q));
  const [{ n }] = await ctx.db.select({ n: count() }).from(externalPayments).where(where);
  return { data: rows.map(dto), meta: pageMeta(q, n) };
}

/** POST /admin/externalPayments: the logo is required. */
export async function createExternalPayment(
  ctx: Pick<AppContext, 'db' | 'objectStore'>,
  actor: StaffActor,
  v: Input,
  logo: UploadedFile | undefined,
): Promise<void> {
  if (!logo) throw new AppError('VALIDATION', 'Logo is required', { logo: 'Logo is required' });
  const upload = await prepareFile(ctx, logo, 'logo');
  await ctx.db.transaction(async (tx) => {
    const logoFileId = await recordFile(tx, upload, actor.id);
    const [row] = await tx
      .insert(externalPayments)
      .values({
        name: v.name,
        link: v.link,
        customLabel: v.customLabel ?? null,
        customValue: v.customValue ?? null,
        logoFileId,
      })
      .returning();
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: null,
      action: 'external_payment.create',
      after: auditOf(row),
      ip: actor.ip,
    });
  });
}

/** PUT /admin/externalPayments/{id}: a new logo replaces the old one; without one the old stays. */
export async function updateExternalPayment(
  ctx: Pick<AppContext, 'db' | 'objectStore'>,
  actor: StaffActor,
  id: number,
  v: Input,
  logo: UploadedFile | undefined,
): Promise<void> {
  const upload = logo ? await prepareFile(ctx, logo, 'logo') : null;
  await ctx.db.transaction(async (tx) => {
    const [before] = await tx.select().from(externalPayments).where(eq(externalPayments.id, id)).for('update');
    if (!before) throw new AppError('EXTERNAL_PAYMENT_NOT_FOUND');
    const logoFileId = upload ? await recordFile(tx, upload, actor.id) : before.logoFileId;
    const [after] = await tx
      .update(externalPayments)
      .set({
        name: v.name,
        link: v.link,
        customLabel: v.customLabel ?? null,
        customValue: v.customValue ?? null,
        logoFileId,
      })
      .where(eq(externalPayments.id, id))
      .returning();
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: null,
      action: 'external_payment.update',
      before: auditOf(before),
      after: auditOf(after),
      ip: actor.ip,
    });
  });
}

/** DELETE /admin/externalPayments/{id}: a link only (no money moved through it), so it goes. */
export async function deleteExternalPayment(ctx: Pick<AppContext, 'db'>, actor: StaffActor, id: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [before] = await tx.delete(externalPayments).where(eq(externalPayments.id, id)).returning();
    if (!before) throw new AppError('EXTERNAL_PAYMENT_NOT_FOUND');
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: null,
      action: 'external_payment.delete',
      before: auditOf(before),
      ip: actor.ip,
    });
  });
}
