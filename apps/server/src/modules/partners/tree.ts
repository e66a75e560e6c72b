import { and, eq, isNull, sql } from 'drizzle-orm';
import type { PartnerNodeDto } from '@platform/domain';
import type { DbOrTx } from '../../db/client.ts';
import { partnerLinks, partnerPlans, users } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import type { StaffActor } from '../../lib/staff-scope.ts';

/**
 * The partner tree: each partner (an affiliate, role 4) names the partner above them. Changes take one lock for the
 * whole tree, so two changes at once can never close a loop between them; reads walk it with a depth bound and a
 * visited path, so even a loop written by hand could not make them run for ever.
 */

/** Any id: every tree change in the database takes this transaction lock first. */
export const TREE_LOCK = 0x7061_7274; // "part"
/** Deeper than any plan pays; a walk stops there. */
const MAX_DEPTH = 64;

const rowsOf = <T>(r: unknown): T[] => (r as { rows: T[] }).rows;

/** The partners above `partnerId`, nearest first (level 2 up), at most `depth` of them. */
export async function ancestorsOf(db: DbOrTx, partnerId: number, depth = MAX_DEPTH): Promise<number[]> {
  const rows = rowsOf<{ id: number }>(
    await db.execute(sql`
      with recursive up(id, depth, path) as (
        select l.parent_id, 1, array[l.user_id] from partner_links l where l.user_id = ${partnerId} and l.parent_id is not null
        union all
        select l.parent_id, up.depth + 1, up.path || up.id
          from up join partner_links l on l.user_id = up.id
         where l.parent_id is not null and up.depth < ${depth} and not (up.id = any(up.path))
      )
      select id from up where not (id = any(path)) order by depth`),
  );
  return rows.map((r) => r.id);
}

/** Every partner below `partnerId` with their level under it (1: their direct sub-partners). */
export async function descendantsOf(
  db: DbOrTx,
  partnerId: number,
): Promise<Array<{ id: number; parentId: number; level: number }>> {
  return rowsOf<{ id: number; parentId: number; level: number }>(
    await db.execute(sql`
      with recursive down(id, parent_id, level, path) as (
        select l.user_id, l.parent_id, 1, array[${partnerId}::int] from partner_links l where l.parent_id = ${partnerId}
        union all
        select l.user_id, l.parent_id, down.level + 1, down.path || down.id
          from down join partner_links l on l.parent_id = down.id
         where down.level < ${MAX_DEPTH} and not (l.user_id = any(down.path || down.id))
      )
      select id, parent_id as "parentId", level from down order by level, id`),
  );
}

/** The whole tree as admins see it. */
export async function partnerTree(db: DbOrTx): Promise<PartnerNodeDto[]> {
  return db
    .select({
      userId: partnerLinks.userId,
      name: users.fullName,
      email: users.email,
      planId: partnerLinks.planId,
      planName: partnerPlans.name,
      parentId: partnerLinks.parentId,
    })
    .from(partnerLinks)
    .innerJoin(users, eq(users.id, partnerLinks.userId))
    .innerJoin(partnerPlans, eq(partnerPlans.id, partnerLinks.planId))
    .orderBy(partnerLinks.userId);
}

async function activeAffiliate(db: DbOrTx, id: number): Promise<boolean> {
  const [u] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, id), eq(users.roleId, 4), isNull(users.deletedAt)));
  return u !== undefined;
}

/**
 * PUT /admin/partners/{userId}: puts an affiliate on a plan under a parent partner (null: at the top). 404 for a
 * user who is not an affiliate, an unknown plan or a parent who is not a partner; 409 for an archived plan or a
 * parent that is the partner themselves or below them (a loop).
 */
export async function setPartnerLink(
  db: DbOrTx,
  actor: StaffActor,
  userId: number,
  input: { planId: number; parentId: number | null },
): Promise<PartnerNodeDto> {
  if (!(await activeAffiliate(db, userId))) throw new AppError('NOT_FOUND', 'Partner not found.');
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${TREE_LOCK})`);
    const [plan] = await tx.select().from(partnerPlans).where(eq(partnerPlans.id, input.planId));
    if (!plan) throw new AppError('NOT_FOUND', 'Plan not found.');
    const [before] = await tx.select().from(partnerLinks).where(eq(partnerLinks.userId, userId));
    if (plan.archivedAt && before?.planId !== plan.id)
      throw new AppError('CONFLICT', 'This plan is archived: choose another plan.');
    if (input.parentId !== null) {
      const [parent] = await tx.select().from(partnerLinks).where(eq(partnerLinks.userId, input.parentId));
      if (!parent || !(await activeAffiliate(tx, input.parentId)))
        throw new AppError('NOT_FOUND', 'The parent partner was not found.');
      if (input.parentId === userId || (await ancestorsOf(tx, input.parentId)).includes(userId))
        throw new AppError(
          'CONFLICT',
          'This parent is the partner or one of their sub-partners: the tree cannot loop.',
        );
    }
    const values = { planId: input.planId, parentId: input.parentId, updatedBy: actor.id, updatedAt: new Date() };
    await tx
      .insert(partnerLinks)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: partnerLinks.userId, set: values });
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: userId,
      action: 'partner.link',
      subjectType: 'partner',
      subjectId: userId,
      before: before ? { planId: before.planId, parentId: before.parentId } : null,
      after: input,
      ip: actor.ip,
    });
  });
  const node = (await partnerTree(db)).find((n) => n.userId === userId);
  if (!node) throw new Error('partner link not written');
  return node;
}
