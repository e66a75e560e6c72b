import { and, asc, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { PagedQuery, TeamItem, TeamListResponse, TeamRequest } from '@platform/domain';
import type { DbOrTx } from '../../db/client.ts';
import { teamMembers, teams, users } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError, isUniqueViolation } from '../../lib/errors.ts';
import { offsetOf, pageMeta, searchAny } from '../../lib/paging.ts';
import type { StaffActor } from '../../lib/staff-scope.ts';

type Input = z.output<typeof TeamRequest>;

const manager = alias(users, 'team_manager');

/** Members of these teams who still have an account, by name. */
async function membersOf(db: DbOrTx, teamIds: number[]): Promise<Map<number, TeamItem['members']>> {
  const out = new Map<number, TeamItem['members']>();
  if (teamIds.length === 0) return out;
  const rows = await db
    .select({ teamId: teamMembers.teamId, id: users.id, full_name: users.fullName, role_id: users.roleId })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(and(inArray(teamMembers.teamId, teamIds), isNull(users.deletedAt)))
    .orderBy(asc(users.fullName), asc(users.id));
  for (const { teamId, ...m } of rows) out.set(teamId, [...(out.get(teamId) ?? []), m]);
  return out;
}

/** GET /admin/crm-config/teams/api: teams newest first, searched by name or code, with manager and members. */
export async function listTeams(db: DbOrTx, q: PagedQuery): Promise<TeamListResponse> {
  const where = searchAny(q.search, [teams.name, teams.code]);
  const [{ n }] = await db.select({ n: count() }).from(teams).where(where);
  const rows = await db
    .select({ t: teams, managerName: manager.fullName, managerDeleted: manager.deletedAt })
    .from(teams)
    .leftJoin(manager, eq(manager.id, teams.managerId))
    .where(where)
    .orderBy(desc(teams.id))
    .limit(q.limit)
    .offset(offsetOf(q));
  const members = await membersOf(
    db,
    rows.map((r) => r.t.id),
  );
  const data = rows.map(({ t, managerName, managerDeleted }) => ({
    id: t.id,
    name: t.name,
    code: t.code,
    user_id: t.managerId,
    // A deleted manager's team has no manager any more: the list shows "-" until one is chosen.
    manager:
      t.managerId !== null && managerName !== null && managerDeleted === null
        ? { id: t.managerId, full_name: managerName }
        : null,
    members: members.get(t.id) ?? [],
  }));
  return { data, meta: pageMeta(q, n) };
}

/** The manager must be an active manager (role 2), the members active agents (5) or retention agents (6). */
async function assertPeople(tx: DbOrTx, managerId: number, memberIds: number[]): Promise<void> {
  const active = and(eq(users.isActive, true), isNull(users.deletedAt));
  const [m] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, managerId), eq(users.roleId, 2), active));
  if (!m) throw new AppError('MANAGER_NOT_FOUND', undefined, { userId: 'Choose an active manager.' });
  if (memberIds.length === 0) return;
  const ok = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, memberIds), inArray(users.roleId, [5, 6]), active));
  const found = new Set(ok.map((r) => r.id));
  const wrong = memberIds.filter((id) => !found.has(id));
  if (wrong.length > 0) {
    const message = `Team members must be active agents or retention agents (not user${wrong.length === 1 ? '' : 's'} ${wrong.map((id) => `#${id}`).join(', ')}).`;
    throw new AppError('TEAM_MEMBER_INVALID', message, { userIds: message });
  }
}

type TeamRow = typeof teams.$inferSelect;
const snapshot = (t: TeamRow, memberIds: number[]) => ({
  name: t.name,
  code: t.code,
  manager_id: t.managerId,
  member_ids: memberIds,
});

async function memberIdsOf(tx: DbOrTx, teamId: number): Promise<number[]> {
  const rows = await tx
    .select({ id: teamMembers.userId })
    .from(teamMembers)
    .where(eq(teamMembers.teamId, teamId))
    .orderBy(asc(teamMembers.userId));
  return rows.map((r) => r.id);
}

const codeTaken = () => new AppError('TEAM_CODE_TAKEN', undefined, { code: 'Another team has this code.' });

async function save(db: DbOrTx, actor: StaffActor, id: number | null, input: Input): Promise<void> {
  const memberIds = [...new Set(input.userIds.map((u) => u.id))].sort((a, b) => a - b);
  try {
    await db.transaction(async (tx) => {
      const [before] = id === null ? [undefined] : await tx.select().from(teams).where(eq(teams.id, id)).for('update');
      if (id !== null && !before) throw new AppError('TEAM_NOT_FOUND');
      await assertPeople(tx, input.userId, memberIds);
      const beforeMembers = before ? await memberIdsOf(tx, before.id) : [];
      const values = { name: input.name, code: input.code, managerId: input.userId };
      const [after] =
        id === null
          ? await tx.insert(teams).values(values).returning()
          : await tx.update(teams).set(values).where(eq(teams.id, id)).returning();
      await tx.delete(teamMembers).where(eq(teamMembers.teamId, after.id));
      if (memberIds.length > 0)
        await tx.insert(teamMembers).values(memberIds.map((userId) => ({ teamId: after.id, userId })));
      await writeAudit(tx, {
        actorId: actor.id,
        targetUserId: null,
        action: id === null ? 'team.create' : 'team.update',
        ip: actor.ip,
        before: before ? snapshot(before, beforeMembers) : null,
        after: snapshot(after, memberIds),
        subjectType: 'team',
        subjectId: after.id,
      });
    });
  } catch (err) {
    if (isUniqueViolation(err, 'teams_code_unique')) throw codeTaken();
    throw err;
  }
}

export const createTeam = (db: DbOrTx, actor: StaffActor, input: Input) => save(db, actor, null, input);
export const updateTeam = (db: DbOrTx, actor: StaffActor, id: number, input: Input) => save(db, actor, id, input);

/** DELETE /admin/crm-config/teams/{id}: the team and its memberships go; leads and their agents are untouched. */
export async function deleteTeam(db: DbOrTx, actor: StaffActor, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(teams).where(eq(teams.id, id)).for('update');
    if (!row) throw new AppError('TEAM_NOT_FOUND');
    const memberIds = await memberIdsOf(tx, id);
    // Memberships go with the team (ON DELETE CASCADE).
    await tx.delete(teams).where(eq(teams.id, id));
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: null,
      action: 'team.delete',
      ip: actor.ip,
      before: snapshot(row, memberIds),
      after: null,
      subjectType: 'team',
      subjectId: id,
    });
  });
}
