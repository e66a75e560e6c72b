import { and, count, desc, eq, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  APPROVAL_KINDS,
  dec,
  type ApprovalDto,
  type ApprovalKind,
  type ApprovalListResponse,
  type ApprovalPendingResponse,
  type ApprovalStatus,
  type NotificationDto,
} from '@platform/domain';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { approvalRequests, users } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError, isUniqueViolation } from '../../lib/errors.ts';
import { customerScope, type StaffActor } from '../../lib/staff-scope.ts';
import { emitAll, insertNotification } from '../notifications/service.ts';
import { APPROVERS, describe, runAction, thresholdOf, type ApprovalAction } from './kinds.ts';
import { approvalSettings, inSiteCurrency, siteCurrency } from './settings.ts';

type Ctx = AppContext;
type Row = typeof approvalRequests.$inferSelect;
type Notices = Array<{ userId: number; dto: NotificationDto }>;

export const SENT_FOR_APPROVAL = 'Sent for approval: a second staff member must approve it before it takes effect.';

/** The kinds a role may decide at all. */
const kindsFor = (roleId: number): ApprovalKind[] =>
  APPROVAL_KINDS.filter((k) => (APPROVERS[k].roles as readonly number[]).includes(roleId));

/** The requests a staff member may see: the kinds their role may decide, scoped kinds on their customers only. */
function visibleTo(actor: StaffActor): SQL | undefined {
  const kinds = kindsFor(actor.roleId);
  if (!kinds.length) return sql`false`;
  if (actor.roleId === 1) return undefined;
  return and(
    inArray(approvalRequests.kind, kinds),
    or(isNull(approvalRequests.targetUserId), customerScope(actor, approvalRequests.targetUserId)),
  );
}

/**
 * The gate each action calls first: when the action's amount (in the site currency) is above its kind's threshold,
 * or its switch is on, the action does not run; a pending request is stored instead, the staff who may approve it
 * are told, and the caller answers 202 with this. Null: below the threshold (or off), the action runs as before.
 */
export async function holdForApproval(
  ctx: Ctx,
  actor: StaffActor,
  action: ApprovalAction,
): Promise<ApprovalPendingResponse | null> {
  const settings = await approvalSettings(ctx.db);
  const threshold = thresholdOf(settings, action.kind);
  if (threshold === null) return null;
  const d = await describe(ctx, actor, action);
  if (!d) return null;
  const site = await siteCurrency(ctx.db);
  const amountSite = d.amount !== null && d.currency ? inSiteCurrency(ctx, d.amount, d.currency, site) : null;
  // Without an amount (the switches) or without a rate to compare it, a second person decides.
  const needed = d.amount === null || amountSite === null || dec(amountSite).gt(threshold);
  if (!needed) return null;
  try {
    const { row, notices } = await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(approvalRequests)
        .values({
          kind: action.kind,
          requestedBy: actor.id,
          requestedIp: actor.ip.slice(0, 64),
          targetUserId: d.targetUserId,
          subjectKey: d.subjectKey,
          payload: action,
          before: d.before,
          after: d.after,
          summary: d.summary.slice(0, 300),
          amount: d.amount,
          currency: d.currency,
          amountSite,
          siteCurrency: site,
          threshold: d.amount === null ? null : threshold,
          reason: d.reason,
        })
        .returning();
      await writeAudit(tx, {
        actorId: actor.id,
        targetUserId: d.targetUserId,
        action: 'approval.request',
        subjectType: 'approval',
        subjectId: row.id,
        before: d.before,
        after: { ...d.after, kind: action.kind, amountSite, siteCurrency: site, threshold },
        ip: actor.ip,
      });
      const notices = await notifyApprovers(tx, row, {
        title: 'Approval needed',
        description: `${d.summary.slice(0, 200)} (request #${row.id})`,
        url: '/admin/approvals',
      });
      return { row, notices };
    });
    emitAll(ctx, notices);
    return { approvalId: row.id, message: SENT_FOR_APPROVAL };
  } catch (err) {
    if (isUniqueViolation(err, 'approval_requests_pending_subject_idx')) throw new AppError('APPROVAL_ALREADY_PENDING');
    throw err;
  }
}

/** Every active staff member other than the requester who may decide the request. */
async function notifyApprovers(
  tx: DbOrTx,
  row: Row,
  input: { title: string; description: string; url: string },
): Promise<Notices> {
  const { roles, scoped } = APPROVERS[row.kind as ApprovalKind];
  const managerOf =
    scoped && row.targetUserId !== null
      ? sql`${users.id} = (select manager_id from user_profiles where user_id = ${row.targetUserId})`
      : sql`false`;
  const staff = await tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.isActive, true),
        isNull(users.deletedAt),
        ne(users.id, row.requestedBy),
        or(eq(users.roleId, 1), roles.includes(2) ? and(eq(users.roleId, 2), managerOf) : sql`false`),
      ),
    );
  const out: Notices = [];
  for (const s of staff) out.push({ userId: s.id, dto: await insertNotification(tx, s.id, input) });
  return out;
}

/** A request the staff member may see (404 otherwise). */
async function visibleRequest(db: DbOrTx, actor: StaffActor, id: number): Promise<Row> {
  const [row] = await db
    .select()
    .from(approvalRequests)
    .where(and(eq(approvalRequests.id, id), visibleTo(actor)));
  if (!row) throw new AppError('APPROVAL_NOT_FOUND');
  return row;
}

function checkDecider(actor: StaffActor, row: Row): void {
  if (row.requestedBy === actor.id) throw new AppError('APPROVAL_OWN_REQUEST');
  if (row.status !== 'pending') throw new AppError('APPROVAL_DECIDED', `This request has already been ${row.status}.`);
}

/**
 * POST /admin/approvals/{id}/approve: a second staff member with the action's rights runs the action as its
 * requester asked it. The request moves pending → approved by a conditional update at the start of the action's
 * own transaction, with the audit row naming both people, so the action runs once however many approve at once.
 * When the action cannot be done any more (funds gone, withdrawal already handled) nothing commits: the request
 * stays pending with the reason, and the approver sees the action's message.
 */
export async function approveRequest(ctx: Ctx, actor: StaffActor, id: number): Promise<ApprovalDto> {
  const row = await visibleRequest(ctx.db, actor, id);
  checkDecider(actor, row);
  const [req] = await ctx.db.select({ roleId: users.roleId }).from(users).where(eq(users.id, row.requestedBy));
  const requester: StaffActor = { id: row.requestedBy, roleId: req?.roleId ?? 0, ip: row.requestedIp ?? '' };
  const notices: Notices = [];
  const within = async (tx: DbOrTx) => {
    const [claimed] = await tx
      .update(approvalRequests)
      .set({ status: 'approved', decidedBy: actor.id, decidedAt: new Date(), lastError: null })
      .where(and(eq(approvalRequests.id, id), eq(approvalRequests.status, 'pending')))
      .returning();
    if (!claimed) throw new AppError('APPROVAL_DECIDED');
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: row.targetUserId,
      action: 'approval.approve',
      subjectType: 'approval',
      subjectId: id,
      before: { status: 'pending', kind: row.kind, requestedBy: row.requestedBy },
      after: { status: 'approved', kind: row.kind, requestedBy: row.requestedBy, approvedBy: actor.id },
      ip: actor.ip,
    });
    notices.push({
      userId: row.requestedBy,
      dto: await insertNotification(tx, row.requestedBy, {
        title: 'Request approved',
        description: `${row.summary.slice(0, 200)} (request #${id}) was approved and done.`,
        url: '/admin/approvals',
      }),
    });
  };
  try {
    await runAction(ctx, requester, row.payload as ApprovalAction, within);
  } catch (err) {
    if (err instanceof AppError && err.code !== 'APPROVAL_DECIDED')
      await ctx.db
        .update(approvalRequests)
        .set({ lastError: err.message.slice(0, 500) })
        .where(and(eq(approvalRequests.id, id), eq(approvalRequests.status, 'pending')));
    throw err;
  }
  emitAll(ctx, notices);
  return approvalDto(ctx.db, actor, id);
}

/** POST /admin/approvals/{id}/reject: pending → rejected once, with the reason; nothing of the action runs. */
export async function rejectRequest(ctx: Ctx, actor: StaffActor, id: number, reason: string): Promise<ApprovalDto> {
  const row = await visibleRequest(ctx.db, actor, id);
  checkDecider(actor, row);
  const notices = await ctx.db.transaction(async (tx) => {
    const [done] = await tx
      .update(approvalRequests)
      .set({ status: 'rejected', decidedBy: actor.id, decidedAt: new Date(), decisionReason: reason })
      .where(and(eq(approvalRequests.id, id), eq(approvalRequests.status, 'pending')))
      .returning();
    if (!done) throw new AppError('APPROVAL_DECIDED');
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: row.targetUserId,
      action: 'approval.reject',
      subjectType: 'approval',
      subjectId: id,
      before: { status: 'pending', kind: row.kind, requestedBy: row.requestedBy },
      after: { status: 'rejected', kind: row.kind, requestedBy: row.requestedBy, rejectedBy: actor.id, reason },
      ip: actor.ip,
    });
    const dto = await insertNotification(tx, row.requestedBy, {
      title: 'Request rejected',
      description: `${row.summary.slice(0, 150)} (request #${id}) was rejected: ${reason.slice(0, 200)}`,
      url: '/admin/approvals',
    });
    return [{ userId: row.requestedBy, dto }];
  });
  emitAll(ctx, notices);
  return approvalDto(ctx.db, actor, id);
}

const requester = alias(users, 'requester');
const target = alias(users, 'target');
const decider = alias(users, 'decider');
const person = (u: { id: number; fullName: string; email: string } | null) =>
  u === null ? null : { id: u.id, full_name: u.fullName, email: u.email };

async function rowsOf(db: DbOrTx, actor: StaffActor, where: SQL | undefined, limit: number, offset: number) {
  const rows = await db
    .select({
      r: approvalRequests,
      q: { id: requester.id, fullName: requester.fullName, email: requester.email },
      t: { id: target.id, fullName: target.fullName, email: target.email },
      d: { id: decider.id, fullName: decider.fullName, email: decider.email },
    })
    .from(approvalRequests)
    .innerJoin(requester, eq(requester.id, approvalRequests.requestedBy))
    .leftJoin(target, eq(target.id, approvalRequests.targetUserId))
    .leftJoin(decider, eq(decider.id, approvalRequests.decidedBy))
    .where(and(visibleTo(actor), where))
    .orderBy(desc(approvalRequests.id))
    .limit(limit)
    .offset(offset);
  return rows.map(
    ({ r, q, t, d }): ApprovalDto => ({
      id: r.id,
      kind: r.kind as ApprovalKind,
      status: r.status as ApprovalStatus,
      summary: r.summary,
      requested_by: person(q)!,
      target_user: person(t),
      before: (r.before as Record<string, unknown> | null) ?? null,
      after: (r.after as Record<string, unknown> | null) ?? null,
      amount: r.amount,
      currency: r.currency,
      amount_site: r.amountSite,
      site_currency: r.siteCurrency,
      threshold: r.threshold,
      reason: r.reason,
      decided_by: person(d),
      decided_at: r.decidedAt?.toISOString() ?? null,
      decision_reason: r.decisionReason,
      last_error: r.lastError,
      created_at: r.createdAt.toISOString(),
      can_decide: r.status === 'pending' && r.requestedBy !== actor.id,
    }),
  );
}

async function approvalDto(db: DbOrTx, actor: StaffActor, id: number): Promise<ApprovalDto> {
  const [dto] = await rowsOf(db, actor, eq(approvalRequests.id, id), 1, 0);
  if (!dto) throw new AppError('APPROVAL_NOT_FOUND');
  return dto;
}

/** GET /admin/approvals?status=: the requests the caller may see, newest first. */
export async function listApprovals(
  db: DbOrTx,
  actor: StaffActor,
  q: { status: ApprovalStatus; page: number; limit: number },
): Promise<ApprovalListResponse> {
  const where = eq(approvalRequests.status, q.status);
  const data = await rowsOf(db, actor, where, q.limit, (q.page - 1) * q.limit);
  const [{ n }] = await db
    .select({ n: count() })
    .from(approvalRequests)
    .where(and(visibleTo(actor), where));
  return { data, meta: { total: n, per_page: q.limit, page: q.page } };
}
