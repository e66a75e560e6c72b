import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import {
  TASK_MAX_AHEAD_DAYS,
  TASK_PAST_GRACE_MIN,
  type NextTask,
  type TaskCreateRequest,
  type TaskItem,
  type TaskListQuery,
  type TaskListResponse,
} from '@platform/domain';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { crmTasks, leads, users } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import { offsetOf, pageMeta } from '../../lib/paging.ts';
import { customerScope, type StaffActor } from '../../lib/staff-scope.ts';
import { emitNotification, insertNotification } from '../notifications/service.ts';
import { leadScope } from './scope.ts';

/**
 * Call-backs and tasks (docs/decisions.md, "Tasks and call-backs"). Anyone working a lead or customer schedules one
 * for themselves; a delayed job (`crm.task-due`) reminds them at its time with a notification on `user:{id}`, and a
 * sweep every minute catches any reminder whose job never came. One conditional update sets `notified_at` with the
 * notification, so a retry, a second instance or the sweep reminds once. Tasks are never deleted.
 */
type Ctx = Pick<AppContext, 'db' | 'jobs' | 'realtime'>;
type TaskRow = typeof crmTasks.$inferSelect;

/** The clock of the reminders; tests move it instead of waiting. */
export const taskClock = { now: (): Date => new Date() };

/**
 * Whose tasks a staff member sees: their own; a manager also those of the members of the teams they manage; an
 * admin everyone's. Applied in SQL: any other task is answered as not found.
 */
export function taskOwnerScope(actor: Pick<StaffActor, 'id' | 'roleId'>): SQL {
  if (actor.roleId === 1) return sql`true`;
  if (actor.roleId === 2)
    return or(
      eq(crmTasks.ownerId, actor.id),
      sql`${crmTasks.ownerId} in (select tm.user_id from team_members tm join teams tt on tt.id = tm.team_id where tt.manager_id = ${actor.id})`,
    )!;
  return eq(crmTasks.ownerId, actor.id);
}

/** A customer the actor works: in their customer scope, or linked to a lead in their lead scope (agents). */
async function assertCustomer(db: DbOrTx, actor: StaffActor, customerId: number): Promise<void> {
  const [c] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.id, customerId),
        eq(users.roleId, 3),
        isNull(users.deletedAt),
        or(
          customerScope(actor, users.id),
          sql`exists (select 1 from ${leads} where ${leads.linkedUserId} = ${users.id} and ${leadScope(actor)})`,
        ),
      ),
    );
  if (!c) throw new AppError('CUSTOMER_NOT_FOUND');
}

async function leadOf(
  db: DbOrTx,
  actor: StaffActor,
  leadId: number,
): Promise<{ id: number; linkedUserId: number | null }> {
  const [l] = await db
    .select({ id: leads.id, linkedUserId: leads.linkedUserId })
    .from(leads)
    .where(and(eq(leads.id, leadId), leadScope(actor)));
  if (!l) throw new AppError('LEAD_NOT_FOUND');
  return l;
}

const owner = alias(users, 'task_owner');
const closer = alias(users, 'task_closer');
const customer = alias(users, 'task_customer');
const person = (id: number | null, name: string | null) =>
  id !== null && name !== null ? { id, full_name: name } : null;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function stateOf(t: Pick<TaskRow, 'doneAt' | 'dueAt'>, now = taskClock.now()): TaskItem['state'] {
  if (t.doneAt) return 'done';
  return t.dueAt.getTime() <= now.getTime() ? 'missed' : 'open';
}

async function loadTasks(
  db: DbOrTx,
  where: SQL | undefined,
  order: SQL[],
  page: { limit: number; offset: number },
): Promise<TaskItem[]> {
  const rows = await db
    .select({
      t: crmTasks,
      ownerName: owner.fullName,
      closerName: closer.fullName,
      customerName: customer.fullName,
      leadFirst: leads.firstName,
      leadLast: leads.lastName,
    })
    .from(crmTasks)
    .leftJoin(owner, eq(owner.id, crmTasks.ownerId))
    .leftJoin(closer, eq(closer.id, crmTasks.doneBy))
    .leftJoin(customer, eq(customer.id, crmTasks.customerId))
    .leftJoin(leads, eq(leads.id, crmTasks.leadId))
    .where(where)
    .orderBy(...order)
    .limit(page.limit)
    .offset(page.offset);
  const now = taskClock.now();
  return rows.map(({ t, ...r }) => ({
    id: t.id,
    kind: t.kind as TaskItem['kind'],
    note: t.note,
    due_at: t.dueAt.toISOString(),
    done_at: iso(t.doneAt),
    notified_at: iso(t.notifiedAt),
    created_at: t.createdAt.toISOString(),
    state: stateOf(t, now),
    owner: person(t.ownerId, r.ownerName),
    done_by: person(t.doneBy, r.closerName),
    lead: t.leadId !== null ? { id: t.leadId, name: [r.leadFirst, r.leadLast].filter(Boolean).join(' ') || '-' } : null,
    customer: person(t.customerId, r.customerName),
  }));
}

async function taskById(db: DbOrTx, id: number): Promise<TaskItem> {
  const [item] = await loadTasks(db, eq(crmTasks.id, id), [asc(crmTasks.id)], { limit: 1, offset: 0 });
  if (!item) throw new AppError('TASK_NOT_FOUND');
  return item;
}

/** POST /admin/crm/tasks: a call-back or task for the caller on a lead or customer they work, reminded at its time. */
export async function createTask(
  ctx: Ctx,
  actor: StaffActor,
  input: z.output<typeof TaskCreateRequest>,
): Promise<TaskItem> {
  const now = taskClock.now();
  const dueAt = new Date(input.dueAt);
  if (dueAt.getTime() < now.getTime() - TASK_PAST_GRACE_MIN * 60_000)
    throw fieldError('dueAt', 'Choose a time that has not passed.');
  if (dueAt.getTime() > now.getTime() + TASK_MAX_AHEAD_DAYS * 86_400_000)
    throw fieldError('dueAt', `Choose a time within ${TASK_MAX_AHEAD_DAYS} days.`);
  const lead = input.leadId !== undefined ? await leadOf(ctx.db, actor, input.leadId) : null;
  if (input.customerId !== undefined) await assertCustomer(ctx.db, actor, input.customerId);
  const id = await ctx.db.transaction(async (tx) => {
    const [t] = await tx
      .insert(crmTasks)
      .values({
        ownerId: actor.id,
        createdBy: actor.id,
        leadId: lead?.id ?? null,
        customerId: input.customerId ?? null,
        kind: input.kind,
        note: input.note || null,
        dueAt,
      })
      .returning();
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: lead ? lead.linkedUserId : t.customerId,
      action: lead ? 'lead.task' : 'customer.task',
      after: { task_id: t.id, kind: t.kind, due_at: t.dueAt.toISOString(), note: t.note },
      ip: actor.ip,
      subjectType: lead ? 'lead' : null,
      subjectId: lead?.id ?? null,
    });
    return t.id;
  });
  await scheduleReminder(ctx, id, dueAt);
  return taskById(ctx.db, id);
}

/** Queues the reminder at the task's time; a failure here is caught by the sweep within a minute of the time. */
async function scheduleReminder(ctx: Pick<AppContext, 'jobs'>, taskId: number, dueAt: Date): Promise<void> {
  try {
    await ctx.jobs.send('crm.task-due', { taskId }, { startAfter: dueAt });
  } catch (err) {
    console.error(`tasks: reminder of task ${taskId} not queued (the sweep will send it):`, (err as Error).message);
  }
}

/** The window of "today" in the viewer's zone (tz: minutes behind UTC, as Date.getTimezoneOffset gives). */
function todayOf(now: Date, tz: number): { start: Date; end: Date } {
  const local = now.getTime() - tz * 60_000;
  const startLocal = Math.floor(local / 86_400_000) * 86_400_000;
  return { start: new Date(startLocal + tz * 60_000), end: new Date(startLocal + tz * 60_000 + 86_400_000) };
}

/**
 * GET /admin/crm/tasks: the caller's tasks (their team's for managers, all for admins) by tab, or every task of one
 * lead or customer they work (404 otherwise), whoever owns it.
 */
export async function listTasks(db: DbOrTx, actor: StaffActor, q: TaskListQuery): Promise<TaskListResponse> {
  const now = taskClock.now();
  let subject: SQL;
  if (q.leadId !== undefined) {
    await leadOf(db, actor, q.leadId);
    subject = eq(crmTasks.leadId, q.leadId);
  } else if (q.customerId !== undefined) {
    await assertCustomer(db, actor, q.customerId);
    subject = eq(crmTasks.customerId, q.customerId);
  } else subject = taskOwnerScope(actor);
  const { start, end } = todayOf(now, q.tz);
  const open = isNull(crmTasks.doneAt);
  const views: Record<TaskListQuery['view'], { where: SQL | undefined; order: SQL[] }> = {
    today: { where: and(open, gte(crmTasks.dueAt, start), lt(crmTasks.dueAt, end)), order: [asc(crmTasks.dueAt)] },
    overdue: { where: and(open, lte(crmTasks.dueAt, now)), order: [asc(crmTasks.dueAt)] },
    upcoming: { where: and(open, gte(crmTasks.dueAt, end)), order: [asc(crmTasks.dueAt)] },
    done: { where: isNotNull(crmTasks.doneAt), order: [desc(crmTasks.doneAt)] },
    all: { where: undefined, order: [desc(crmTasks.dueAt)] },
  };
  const view = views[q.view];
  const where = and(subject, view.where, q.ownerId !== undefined ? eq(crmTasks.ownerId, q.ownerId) : undefined);
  const [[{ n }], data] = await Promise.all([
    db.select({ n: count() }).from(crmTasks).where(where),
    loadTasks(db, where, [...view.order, desc(crmTasks.id)], { limit: q.limit, offset: offsetOf(q) }),
  ]);
  return { data, meta: pageMeta(q, n) };
}

/** POST /admin/crm/tasks/{id}/done: marks a task in the caller's scope done (again: no change). */
export async function completeTask(ctx: Pick<AppContext, 'db'>, actor: StaffActor, id: number): Promise<TaskItem> {
  await ctx.db.transaction(async (tx) => {
    const [t] = await tx
      .select()
      .from(crmTasks)
      .where(and(eq(crmTasks.id, id), taskOwnerScope(actor)))
      .for('update');
    if (!t) throw new AppError('TASK_NOT_FOUND');
    if (t.doneAt) return;
    const [done] = await tx
      .update(crmTasks)
      .set({ doneAt: taskClock.now(), doneBy: actor.id })
      .where(eq(crmTasks.id, id))
      .returning();
    if (done.leadId !== null)
      await writeAudit(tx, {
        actorId: actor.id,
        targetUserId: null,
        action: 'lead.task_done',
        after: { task_id: id, kind: done.kind, due_at: done.dueAt.toISOString(), state: stateOf(t) },
        ip: actor.ip,
        subjectType: 'lead',
        subjectId: done.leadId,
      });
  });
  return taskById(ctx.db, id);
}

/**
 * The reminder of one task (job `crm.task-due`, and the sweep): once it is due, not done and not yet reminded, one
 * conditional update marks it reminded and stores the owner's notification in the same transaction; the
 * notification goes out on `user:{owner}` after the commit. A job that runs early is queued again for the time.
 */
export async function remindTask(ctx: Ctx, taskId: number): Promise<boolean> {
  const now = taskClock.now();
  const [t] = await ctx.db.select().from(crmTasks).where(eq(crmTasks.id, taskId));
  if (!t || t.notifiedAt || t.doneAt) return false;
  if (t.dueAt.getTime() > now.getTime()) {
    await scheduleReminder(ctx, taskId, t.dueAt);
    return false;
  }
  const sent = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(crmTasks)
      .set({ notifiedAt: now })
      .where(
        and(eq(crmTasks.id, taskId), isNull(crmTasks.notifiedAt), isNull(crmTasks.doneAt), lte(crmTasks.dueAt, now)),
      )
      .returning();
    if (!row) return null;
    const [item] = await loadTasks(tx, eq(crmTasks.id, taskId), [asc(crmTasks.id)], { limit: 1, offset: 0 });
    const about = item.lead?.name ?? item.customer?.full_name ?? '';
    const dto = await insertNotification(tx, row.ownerId, {
      title: `${row.kind === 'callback' ? 'Call-back' : 'Task'} due: ${about}`.slice(0, 200),
      description: row.note ?? undefined,
      url: '/admin/tasks',
    });
    return { ownerId: row.ownerId, dto };
  });
  if (!sent) return false;
  emitNotification(ctx, sent.ownerId, sent.dto);
  return true;
}

/** Every minute: reminders of the last day whose job never came (the queue was out when the task was saved). */
export async function sweepDueTasks(ctx: Ctx): Promise<number> {
  const now = taskClock.now();
  const due = await ctx.db
    .select({ id: crmTasks.id })
    .from(crmTasks)
    .where(
      and(
        isNull(crmTasks.notifiedAt),
        isNull(crmTasks.doneAt),
        lte(crmTasks.dueAt, now),
        gt(crmTasks.dueAt, new Date(now.getTime() - 86_400_000)),
      ),
    )
    .orderBy(asc(crmTasks.dueAt))
    .limit(500);
  let sent = 0;
  for (const { id } of due) if (await remindTask(ctx, id)) sent++;
  return sent;
}

/** The earliest open task of each lead (missed ones included), for the lead rows. */
export async function nextTasksOf(db: DbOrTx, leadIds: number[]): Promise<Map<number, NextTask>> {
  const out = new Map<number, NextTask>();
  if (leadIds.length === 0) return out;
  const rows = await db
    .selectDistinctOn([crmTasks.leadId], {
      leadId: crmTasks.leadId,
      id: crmTasks.id,
      kind: crmTasks.kind,
      dueAt: crmTasks.dueAt,
      note: crmTasks.note,
      owner: owner.fullName,
    })
    .from(crmTasks)
    .leftJoin(owner, eq(owner.id, crmTasks.ownerId))
    .where(and(inArray(crmTasks.leadId, leadIds), isNull(crmTasks.doneAt)))
    .orderBy(crmTasks.leadId, asc(crmTasks.dueAt), asc(crmTasks.id));
  for (const r of rows)
    if (r.leadId !== null)
      out.set(r.leadId, {
        id: r.id,
        kind: r.kind as NextTask['kind'],
        due_at: r.dueAt.toISOString(),
        note: r.note,
        owner: r.owner,
      });
  return out;
}
