import { and, count, desc, eq, ilike, inArray, or } from 'drizzle-orm';
import type { KYC_DOCUMENT_TYPES, AdminKycDto, KycStatusResponse, NotificationDto, PagedQuery } from '@platform/domain';
import type { AppContext } from '../../context.ts';
import { kycDocuments, storedFiles, users } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import type { UploadedFile } from '../../lib/multipart.ts';
import { escapeLike, offsetOf, pageMeta } from '../../lib/paging.ts';
import type { StaffActor } from '../../lib/staff-scope.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { fileUrl, prepareFile, recordFile, type PreparedFile } from '../files/storage.ts';
import { emitAll, insertNotification, insertStaffNotifications } from '../notifications/service.ts';
import { forgetTrader } from '../trading/trader.ts';
import { syncKycListStatus } from './list-status.ts';

type Ctx = Pick<AppContext, 'db' | 'realtime' | 'objectStore'>;
type KycType = (typeof KYC_DOCUMENT_TYPES)[number];

/** The caller's latest submission: a new one is kept beside the earlier ones, never over them. */
async function latest(ctx: Pick<AppContext, 'db'>, userId: number) {
  const [row] = await ctx.db
    .select()
    .from(kycDocuments)
    .where(eq(kycDocuments.userId, userId))
    .orderBy(desc(kycDocuments.id))
    .limit(1);
  return row ?? null;
}

/** GET /kyc. */
export async function kycStatus(ctx: Pick<AppContext, 'db'>, userId: number): Promise<KycStatusResponse> {
  const row = await latest(ctx, userId);
  if (!row) return { status: 'not_submitted', type: null, declineReason: null, created_at: null };
  return {
    status: row.status as KycStatusResponse['status'],
    type: row.type as KycType,
    declineReason: row.declineReason,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * POST /kyc: a new submission while none is pending or approved (a declined one may be resubmitted). The files
 * are checked by content and stored with the record in one transaction; admins are told.
 */
export async function submitKyc(
  ctx: Ctx,
  user: SessionUser,
  type: KycType,
  files: Partial<Record<'front' | 'back' | 'address', UploadedFile>>,
): Promise<string> {
  if (!files.front && !files.back && !files.address)
    throw new AppError('VALIDATION', 'Please attach at least one document.', {
      front: 'Please attach at least one document.',
    });
  const prepared = async (f: UploadedFile | undefined) => (f ? prepareFile(ctx, f, 'kyc') : null);
  const uploads = {
    front: await prepared(files.front),
    back: await prepared(files.back),
    address: await prepared(files.address),
  };
  const notices = await ctx.db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(kycDocuments)
      .where(eq(kycDocuments.userId, user.id))
      .orderBy(desc(kycDocuments.id))
      .limit(1)
      .for('update');
    if (current?.status === 'pending') throw new AppError('KYC_IN_REVIEW');
    if (current?.status === 'approved') throw new AppError('KYC_ALREADY_APPROVED');
    const stored = async (f: PreparedFile | null) => (f ? recordFile(tx, f, user.id) : null);
    const [row] = await tx
      .insert(kycDocuments)
      .values({
        userId: user.id,
        type,
        status: 'pending',
        front: await stored(uploads.front),
        back: await stored(uploads.back),
        address: await stored(uploads.address),
      })
      .returning();
    await syncKycListStatus(tx, user.id);
    return insertStaffNotifications(
      tx,
      user.id,
      {
        title: 'New KYC submission',
        description: `${user.fullName} sent documents for review (#${row.id})`,
        url: '/admin/kyc',
      },
      false,
    );
  });
  emitAll(ctx, notices);
  return 'Your documents were submitted for review.';
}

function adminKycDto(
  k: typeof kycDocuments.$inferSelect,
  u: { id: number; fullName: string; email: string },
  mimes: Map<string, string>,
): AdminKycDto {
  const ref = (id: string | null) =>
    id ? { url: fileUrl(id)!, mime: mimes.get(id) ?? 'application/octet-stream' } : null;
  return {
    id: k.id,
    type: k.type as KycType,
    status: k.status as AdminKycDto['status'],
    created_at: k.createdAt.toISOString(),
    user: { id: u.id, full_name: u.fullName, email: u.email },
    front: ref(k.front),
    back: ref(k.back),
    address: ref(k.address),
    decline_reason: k.declineReason,
  };
}

/** GET /admin/kyc/api: every submission, newest first, searchable by name or email. */
export async function listKyc(ctx: Pick<AppContext, 'db'>, q: PagedQuery) {
  const s = q.search?.trim();
  const where = s
    ? or(ilike(users.email, `%${escapeLike(s)}%`), ilike(users.fullName, `%${escapeLike(s)}%`))
    : undefined;
  const rows = await ctx.db
    .select({ k: kycDocuments, u: { id: users.id, fullName: users.fullName, email: users.email } })
    .from(kycDocuments)
    .innerJoin(users, eq(users.id, kycDocuments.userId))
    .where(where)
    .orderBy(desc(kycDocuments.id))
    .limit(q.limit)
    .offset(offsetOf(q));
  const [{ n }] = await ctx.db
    .select({ n: count() })
    .from(kycDocuments)
    .innerJoin(users, eq(users.id, kycDocuments.userId))
    .where(where);
  const ids = rows.flatMap((r) => [r.k.front, r.k.back, r.k.address]).filter((id): id is string => Boolean(id));
  const files = ids.length
    ? await ctx.db
        .select({ id: storedFiles.id, mime: storedFiles.mime })
        .from(storedFiles)
        .where(inArray(storedFiles.id, ids))
    : [];
  const mimes = new Map(files.map((f) => [f.id, f.mime]));
  return { data: rows.map((r) => adminKycDto(r.k, r.u, mimes)), meta: pageMeta(q, n) };
}

/**
 * POST /admin/kyc/{id}/approve and /decline. Approve is offered while not approved; decline always (a verified
 * customer can be asked for new papers). The client is told live, and trading re-reads the KYC state.
 */
export async function reviewKyc(
  ctx: Ctx,
  actor: StaffActor,
  id: number,
  outcome: 'approved' | 'declined',
  reason?: string | null,
): Promise<void> {
  const result = await ctx.db.transaction(async (tx) => {
    const [before] = await tx.select().from(kycDocuments).where(eq(kycDocuments.id, id)).for('update');
    if (!before) throw new AppError('KYC_NOT_FOUND');
    if (outcome === 'approved' && before.status === 'approved')
      throw new AppError('ALREADY_REVIEWED', 'This document is already approved.');
    const declineReason = outcome === 'declined' ? reason?.trim() || null : null;
    await tx
      .update(kycDocuments)
      .set({ status: outcome, declineReason, reviewedBy: actor.id, reviewedAt: new Date() })
      .where(and(eq(kycDocuments.id, id)));
    await syncKycListStatus(tx, before.userId);
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: before.userId,
      action: `kyc.${outcome === 'approved' ? 'approve' : 'decline'}`,
      before: { id, status: before.status, reason: before.declineReason },
      after: { id, status: outcome, reason: declineReason },
      ip: actor.ip,
    });
    const dto: NotificationDto = await insertNotification(
      tx,
      before.userId,
      outcome === 'approved'
        ? { title: 'KYC approved', description: 'Your identity is verified.', url: '/kyc' }
        : {
            title: 'KYC declined',
            description: declineReason
              ? `Your documents were declined: ${declineReason}`
              : 'Your documents were declined. Please resubmit.',
            url: '/kyc',
          },
    );
    return { userId: before.userId, dto };
  });
  forgetTrader(ctx.db, result.userId);
  emitAll(ctx, [result]);
}
