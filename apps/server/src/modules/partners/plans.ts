import { desc, eq, sql } from 'drizzle-orm';
import type { PartnerPlanDto, PartnerPlanInput } from '@platform/domain';
import type { DbOrTx } from '../../db/client.ts';
import { partnerCommissions, partnerLinks, partnerPlans, partnerPlanVersions } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import type { StaffActor } from '../../lib/staff-scope.ts';

/**
 * Commission plans (admins). A plan's terms are versions dated from `effective_from`: an edit adds a version, so a
 * deal is always paid by the terms in effect when it closed. Nothing that accrued is ever erased: a plan in use is
 * archived instead of deleted.
 */

export type PlanVersion = typeof partnerPlanVersions.$inferSelect;

/** How far in the past a new version may start (a form's clock against the server's). */
const BACKDATE_TOLERANCE_MS = 60_000;

const dto = (
  plan: typeof partnerPlans.$inferSelect,
  v: PlanVersion,
  counts: { versions: number; partners: number },
): PartnerPlanDto => ({
  id: plan.id,
  name: plan.name,
  currency: v.currency,
  perLot: v.perLot,
  spreadShare: v.spreadShare,
  commissionShare: v.commissionShare,
  cpa: v.cpa,
  cpaMinDeposit: v.cpaMinDeposit,
  levels: v.levels,
  countDemo: v.countDemo,
  minHoldSeconds: v.minHoldSeconds,
  versionId: v.id,
  effectiveFrom: v.effectiveFrom.toISOString(),
  versions: counts.versions,
  partners: counts.partners,
  archived: plan.archivedAt !== null,
});

const versionValues = (planId: number, input: PartnerPlanInput, effectiveFrom: Date, actorId: number) => ({
  planId,
  effectiveFrom,
  name: input.name,
  currency: input.currency,
  perLot: input.perLot,
  spreadShare: input.spreadShare,
  commissionShare: input.commissionShare,
  cpa: input.cpa,
  cpaMinDeposit: input.cpaMinDeposit,
  levels: input.levels,
  countDemo: input.countDemo,
  minHoldSeconds: input.minHoldSeconds,
  createdBy: actorId,
});

/** Every plan with its latest version, newest plan first. */
export async function listPlans(db: DbOrTx): Promise<PartnerPlanDto[]> {
  const rows = await db.execute(sql`
    select p.id from partner_plans p order by p.archived_at is not null, p.id desc`);
  const out: PartnerPlanDto[] = [];
  for (const { id } of (rows as unknown as { rows: Array<{ id: number }> }).rows) out.push(await planDto(db, id));
  return out;
}

/** One plan with its latest version; 404 when there is none. */
export async function planDto(db: DbOrTx, planId: number): Promise<PartnerPlanDto> {
  const [plan] = await db.select().from(partnerPlans).where(eq(partnerPlans.id, planId));
  if (!plan) throw new AppError('NOT_FOUND', 'Plan not found.');
  const [latest] = await db
    .select()
    .from(partnerPlanVersions)
    .where(eq(partnerPlanVersions.planId, planId))
    .orderBy(desc(partnerPlanVersions.effectiveFrom))
    .limit(1);
  const [{ versions }] = await db
    .select({ versions: sql<number>`count(*)::int` })
    .from(partnerPlanVersions)
    .where(eq(partnerPlanVersions.planId, planId));
  const [{ partners }] = await db
    .select({ partners: sql<number>`count(*)::int` })
    .from(partnerLinks)
    .where(eq(partnerLinks.planId, planId));
  return dto(plan, latest, { versions, partners });
}

export async function createPlan(db: DbOrTx, actor: StaffActor, input: PartnerPlanInput): Promise<PartnerPlanDto> {
  const id = await db.transaction(async (tx) => {
    const [plan] = await tx.insert(partnerPlans).values({ name: input.name }).returning();
    // The first version covers deals closed from the plan's creation on: nothing closed before it is paid by it.
    await tx.insert(partnerPlanVersions).values(versionValues(plan.id, input, new Date(), actor.id));
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: null,
      action: 'partner_plan.create',
      subjectType: 'partner_plan',
      subjectId: plan.id,
      before: null,
      after: { ...input, effectiveFrom: undefined },
      ip: actor.ip,
    });
    return plan.id;
  });
  return planDto(db, id);
}

/**
 * Adds a version of the plan's terms from `effectiveFrom` (now when absent; never before the latest version nor in
 * the past, so no closed deal is repriced).
 */
export async function updatePlan(
  db: DbOrTx,
  actor: StaffActor,
  planId: number,
  input: PartnerPlanInput,
  now = new Date(),
): Promise<PartnerPlanDto> {
  const before = await planDto(db, planId);
  if (before.archived) throw new AppError('CONFLICT', 'This plan is archived: create a new plan instead.');
  const from = input.effectiveFrom ?? now;
  if (from.getTime() < now.getTime() - BACKDATE_TOLERANCE_MS)
    throw fieldError('effectiveFrom', 'New terms cannot start in the past: deals already closed keep their terms.');
  if (from.getTime() <= Date.parse(before.effectiveFrom))
    throw fieldError('effectiveFrom', 'New terms must start after the latest version.');
  await db.transaction(async (tx) => {
    await tx.update(partnerPlans).set({ name: input.name }).where(eq(partnerPlans.id, planId));
    await tx.insert(partnerPlanVersions).values(versionValues(planId, input, from, actor.id));
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: null,
      action: 'partner_plan.update',
      subjectType: 'partner_plan',
      subjectId: planId,
      before,
      after: { ...input, effectiveFrom: from.toISOString() },
      ip: actor.ip,
    });
  });
  return planDto(db, planId);
}

/**
 * Deletes a plan no partner uses and nothing accrued under; otherwise archives it (it keeps paying its partners'
 * deals; no partner can be put on it). Answers what was done.
 */
export async function deletePlan(db: DbOrTx, actor: StaffActor, planId: number): Promise<'deleted' | 'archived'> {
  const before = await planDto(db, planId);
  return db.transaction(async (tx) => {
    const [used] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(partnerCommissions)
      .innerJoin(partnerPlanVersions, eq(partnerPlanVersions.id, partnerCommissions.planVersionId))
      .where(eq(partnerPlanVersions.planId, planId));
    const done = before.partners > 0 || used.n > 0 ? 'archived' : 'deleted';
    if (done === 'deleted') {
      await tx.delete(partnerPlanVersions).where(eq(partnerPlanVersions.planId, planId));
      await tx.delete(partnerPlans).where(eq(partnerPlans.id, planId));
    } else
      await tx
        .update(partnerPlans)
        .set({ archivedAt: sql`coalesce(archived_at, now())` })
        .where(eq(partnerPlans.id, planId));
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: null,
      action: done === 'deleted' ? 'partner_plan.delete' : 'partner_plan.archive',
      subjectType: 'partner_plan',
      subjectId: planId,
      before,
      after: null,
      ip: actor.ip,
    });
    return done;
  });
}
