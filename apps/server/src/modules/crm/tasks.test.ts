import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import type { TestApp } from '../../../test/helpers.ts';
import { auditLogs, crmTasks, notifications, teamMembers, teams, userProfiles } from '../../db/schema.ts';
import { crmKit } from './crm-testing.ts';
import { createJobs } from '../../jobs/queue.ts';
import { jobHandlers } from '../../jobs/handlers.ts';
import { remindTask, sweepDueTasks, taskClock } from './tasks.ts';

/** Call-backs and tasks: who may schedule and see them, their tabs, done, and the reminder at their time. */
const kit = crmKit();
const { ids, call, lead } = kit;
let t: TestApp;
const emitted: Array<{ userId: number; event: string; payload: { title?: string } }> = [];
const realNow = taskClock.now;

beforeAll(async () => {
  t = await kit.start();
  const send = t.ctx.realtime.toUser.bind(t.ctx.realtime);
  t.ctx.realtime.toUser = (userId, event, payload) => {
    emitted.push({ userId, event, payload: payload as { title?: string } });
    send(userId, event, payload);
  };
  // The demo manager leads a team with the demo sales agent; the second agent is in no team of theirs.
  const [team] = await t.ctx.db.insert(teams).values({ name: 'Desk', code: 'DSK', managerId: ids.manager }).returning();
  await t.ctx.db.insert(teamMembers).values({ teamId: team.id, userId: ids.agent });
});
afterAll(async () => t.close());
afterEach(() => {
  taskClock.now = realNow;
});

const inMinutes = (m: number, from = Date.now()) => new Date(from + m * 60_000).toISOString();
const create = (who: number | string | null, body: unknown) => call(who, 'POST', '/admin/crm/tasks', body);
const list = async (who: number | string, query = '') => {
  const res = await call(who, 'GET', `/admin/crm/tasks?limit=100${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Array<{ id: number; state: string; owner: { id: number } }>;
};
const notesOf = (userId: number, taskTitle: string) =>
  t.ctx.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.title, taskTitle)));

describe('scheduling', () => {
  it('lets an agent schedule a call-back on their lead: in their list, on the lead row, in its history', async () => {
    const { id, name } = await lead({ agentId: ids.agent });
    const res = await create(5, { leadId: id, dueAt: inMinutes(90), note: 'Ask about the deposit' });
    expect(res.statusCode, res.body).toBe(201);
    const task = res.json().task;
    expect(task).toMatchObject({
      kind: 'callback',
      note: 'Ask about the deposit',
      state: 'open',
      owner: { id: ids.agent },
      lead: { id, name: `${name} Lead` },
      done_at: null,
      notified_at: null,
    });
    expect((await list(5, '&view=all')).map((x) => x.id)).toContain(task.id);
    expect((await list(5, `&leadId=${id}`)).map((x) => x.id)).toEqual([task.id]);
    const rows = (await call(5, 'GET', `/affiliate/leads/api/sales/All/all?search=${name}`)).json().data;
    expect(rows[0].next_task).toMatchObject({ id: task.id, kind: 'callback', note: 'Ask about the deposit' });
    const [h] = await t.ctx.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.subjectType, 'lead'), eq(auditLogs.subjectId, id), eq(auditLogs.action, 'lead.task')));
    expect(h).toMatchObject({ actorId: ids.agent, after: { task_id: task.id, kind: 'callback' } });
  });

  it("answers 404 for another agent's lead or a customer outside the caller's scope", async () => {
    const theirs = await lead({ agentId: ids.agent2 });
    for (const [who, body] of [
      [5, { leadId: theirs.id }],
      [6, { leadId: theirs.id }],
      [5, { customerId: ids.client }],
      [2, { customerId: ids.admin }],
    ] as const) {
      const res = await create(who, { ...body, dueAt: inMinutes(30) });
      expect(res.statusCode, `${who} ${JSON.stringify(body)}`).toBe(404);
    }
    expect((await call(5, 'GET', `/admin/crm/tasks?leadId=${theirs.id}`)).statusCode).toBe(404);
    expect((await create(4, { leadId: theirs.id, dueAt: inMinutes(30) })).statusCode).toBe(403);
    expect((await create(3, { leadId: theirs.id, dueAt: inMinutes(30) })).statusCode).toBe(403);
    expect((await create(null, { leadId: theirs.id, dueAt: inMinutes(30) })).statusCode).toBe(401);
  });

  it("lets staff schedule on a customer they work: the manager's customer, an agent's converted lead", async () => {
    await t.ctx.db.update(userProfiles).set({ managerId: ids.manager }).where(eq(userProfiles.userId, ids.client));
    const mine = await create(2, { customerId: ids.client, kind: 'task', dueAt: inMinutes(60), note: 'KYC' });
    expect(mine.statusCode, mine.body).toBe(201);
    expect(mine.json().task).toMatchObject({ kind: 'task', customer: { id: ids.client }, lead: null });
    expect((await create(5, { customerId: ids.client, dueAt: inMinutes(60) })).statusCode).toBe(404);
    await lead({ agentId: ids.agent, linkedUserId: ids.client, group: 'clients' });
    expect((await create(5, { customerId: ids.client, dueAt: inMinutes(60) })).statusCode).toBe(201);
  });

  it('refuses bad input with 400', async () => {
    const { id } = await lead({ agentId: ids.agent });
    for (const body of [
      { dueAt: inMinutes(30) },
      { leadId: id, customerId: ids.client, dueAt: inMinutes(30) },
      { leadId: id },
      { leadId: id, dueAt: 'tomorrow' },
      { leadId: id, dueAt: inMinutes(-30) },
      { leadId: id, dueAt: inMinutes(367 * 24 * 60) },
      { leadId: id, dueAt: inMinutes(30), note: 'x'.repeat(501) },
      { leadId: id, dueAt: inMinutes(30), kind: 'meeting' },
      { leadId: 'abc', dueAt: inMinutes(30) },
    ]) {
      const res = await create(5, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBeTruthy();
    }
    expect((await create(5, { leadId: id, dueAt: inMinutes(-30) })).json().errors).toMatchObject({
      dueAt: 'Choose a time that has not passed.',
    });
    for (const q of ['view=later', 'limit=1000', 'tz=9999', 'ownerId=x'])
      expect((await call(5, 'GET', `/admin/crm/tasks?${q}`)).statusCode, q).toBe(400);
    expect((await call(5, 'POST', '/admin/crm/tasks/abc/done')).statusCode).toBe(400);
  });
});

describe('scope, tabs and done', () => {
  it("shows managers their team's tasks, admins everyone's, agents their own; done by them or 404", async () => {
    const a = await lead({ agentId: ids.agent });
    const b = await lead({ agentId: ids.agent2 });
    const mine = (await create(5, { leadId: a.id, dueAt: inMinutes(45) })).json().task.id;
    const other = (await create('agent2', { leadId: b.id, dueAt: inMinutes(45) })).json().task.id;
    const idsOf = async (who: number | string) => (await list(who, '&view=all')).map((x) => x.id);
    expect(await idsOf(5)).toContain(mine);
    expect(await idsOf(5)).not.toContain(other);
    expect(await idsOf(2)).toContain(mine);
    expect(await idsOf(2)).not.toContain(other);
    expect(await idsOf(1)).toEqual(expect.arrayContaining([mine, other]));
    expect((await list(2, `&view=all&ownerId=${ids.agent}`)).every((x) => x.owner.id === ids.agent)).toBe(true);

    for (const [who, id] of [
      [5, other],
      [2, other],
      ['agent2', mine],
      [6, mine],
    ] as const)
      expect((await call(who, 'POST', `/admin/crm/tasks/${id}/done`)).statusCode, `${who} ${id}`).toBe(404);
    const done = await call(2, 'POST', `/admin/crm/tasks/${mine}/done`);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().task).toMatchObject({ state: 'done', done_by: { id: ids.manager } });
    // Again: nothing changes. Done tasks stay, under Done.
    expect((await call(5, 'POST', `/admin/crm/tasks/${mine}/done`)).json().task.done_by.id).toBe(ids.manager);
    expect((await list(5, '&view=done')).map((x) => x.id)).toContain(mine);
    expect((await list(5, '&view=upcoming')).map((x) => x.id)).not.toContain(mine);
    expect((await call(1, 'POST', `/admin/crm/tasks/${other}/done`)).statusCode).toBe(200);
  });

  it('keeps missed tasks (past due, not done) under Overdue and Today, upcoming ones after today', async () => {
    const { id } = await lead({ agentId: ids.agent });
    const missed = (await create(5, { leadId: id, dueAt: inMinutes(-2) })).json().task;
    expect(missed.state).toBe('missed');
    const later = (await create(5, { leadId: id, dueAt: inMinutes(3 * 24 * 60) })).json().task;
    const overdue = (await list(5, '&view=overdue')).map((x) => x.id);
    expect(overdue).toContain(missed.id);
    expect(overdue).not.toContain(later.id);
    // Today in UTC (tz=0); a call-back two minutes ago is today unless the day just began.
    const today = (await list(5, '&view=today&tz=0')).map((x) => x.id);
    const dueDay = new Date(missed.due_at).toISOString().slice(0, 10);
    if (dueDay === new Date().toISOString().slice(0, 10)) expect(today).toContain(missed.id);
    expect(today).not.toContain(later.id);
    expect((await list(5, '&view=upcoming')).map((x) => x.id)).toContain(later.id);
    expect((await list(5, `&leadId=${id}&view=all`)).map((x) => x.id).sort()).toEqual([missed.id, later.id].sort());
  });
});

describe('reminders', () => {
  it('reminds the owner once at the time: a delayed job, run when the clock gets there (no waiting)', async () => {
    const { id } = await lead({ agentId: ids.agent, firstName: 'Remind', lastName: 'Me' });
    const due = new Date(Date.now() + 60 * 60_000);
    const task = (await create(5, { leadId: id, dueAt: due.toISOString(), note: 'Call back about funding' })).json()
      .task;
    const title = 'Call-back due: Remind Me';
    // The job waits in the queue for the task's time.
    const jobs = (await t.ctx.db.execute(sql`
      select id, state, extract(epoch from start_after)::float8 as at from pgboss.job
       where name = 'crm.task-due' and (data->>'taskId')::int = ${task.id}`)) as unknown as {
      rows: Array<{ id: string; state: string; at: number }>;
    };
    expect(jobs.rows).toHaveLength(1);
    expect(jobs.rows[0].state).toBe('created');
    expect(Math.abs(jobs.rows[0].at * 1000 - due.getTime())).toBeLessThan(1000);
    await t.ctx.jobs.idle();
    expect(await notesOf(ids.agent, title)).toEqual([]);

    // The time comes: the reminder clock moves to it and the queue's own clock sees the job due.
    taskClock.now = () => new Date(due.getTime() + 1000);
    await t.ctx.db.execute(sql`update pgboss.job set start_after = now() where id = ${jobs.rows[0].id}::uuid`);
    await expect.poll(async () => (await notesOf(ids.agent, title)).length, { timeout: 15_000, interval: 100 }).toBe(1);
    const [note] = await notesOf(ids.agent, title);
    expect(note).toMatchObject({ description: 'Call back about funding', url: '/admin/tasks' });
    expect(emitted.filter((e) => e.payload.title === title)).toEqual([
      expect.objectContaining({ userId: ids.agent, event: `user:${ids.agent}` }),
    ]);
    const [row] = await t.ctx.db.select().from(crmTasks).where(eq(crmTasks.id, task.id));
    expect(row.notifiedAt).not.toBeNull();

    // A retry, the sweep or a second instance's job sends nothing more.
    expect(await remindTask(t.ctx, task.id)).toBe(false);
    await sweepDueTasks(t.ctx);
    expect(await notesOf(ids.agent, title)).toHaveLength(1);
  });

  it('a job that comes early waits for the time; racing reminders send one; a done task none', async () => {
    const { id } = await lead({ agentId: ids.agent, firstName: 'Race', lastName: 'Lead' });
    const due = new Date(Date.now() + 10 * 60_000);
    const task = (await create(5, { leadId: id, dueAt: due.toISOString() })).json().task;
    expect(await remindTask(t.ctx, task.id)).toBe(false);
    taskClock.now = () => new Date(due.getTime() + 5);
    await Promise.all([remindTask(t.ctx, task.id), remindTask(t.ctx, task.id), sweepDueTasks(t.ctx)]);
    expect(await notesOf(ids.agent, 'Call-back due: Race Lead')).toHaveLength(1);

    const other = (
      await create(5, { leadId: id, kind: 'task', dueAt: new Date(due.getTime() + 60_000).toISOString() })
    ).json().task;
    expect((await call(5, 'POST', `/admin/crm/tasks/${other.id}/done`)).statusCode).toBe(200);
    taskClock.now = () => new Date(due.getTime() + 120_000);
    expect(await remindTask(t.ctx, other.id)).toBe(false);
    expect(await notesOf(ids.agent, 'Task due: Race Lead')).toHaveLength(0);
  });

  it('the sweep sends a due reminder whose job was lost', async () => {
    const { id } = await lead({ agentId: ids.agent, firstName: 'Lost', lastName: 'Job' });
    const due = new Date(Date.now() + 20 * 60_000);
    const task = (await create(5, { leadId: id, dueAt: due.toISOString() })).json().task;
    await t.ctx.db.execute(
      sql`delete from pgboss.job where name = 'crm.task-due' and (data->>'taskId')::int = ${task.id}`,
    );
    taskClock.now = () => new Date(due.getTime() + 30_000);
    expect(await sweepDueTasks(t.ctx)).toBeGreaterThanOrEqual(1);
    expect(await notesOf(ids.agent, 'Call-back due: Lost Job')).toHaveLength(1);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('reminders with two instances (PostgreSQL)', () => {
  it('sends one reminder when both instances run a job for it', { timeout: 60_000 }, async () => {
    const { id } = await lead({ agentId: ids.agent, firstName: 'Two', lastName: 'Instances' });
    const due = new Date(Date.now() + 30 * 60_000);
    const task = (await create(5, { leadId: id, dueAt: due.toISOString() })).json().task;
    taskClock.now = () => new Date(due.getTime() + 1000);
    const a = createJobs(t.database.queue, t.ctx.db, { fast: true });
    const b = createJobs(t.database.queue, t.ctx.db, { fast: true });
    try {
      await Promise.all([a.start(jobHandlers(t.ctx)), b.start(jobHandlers(t.ctx))]);
      await Promise.all([a.send('crm.task-due', { taskId: task.id }), b.send('crm.task-due', { taskId: task.id })]);
      await a.idle(30_000);
      await b.idle(30_000);
      expect(await notesOf(ids.agent, 'Call-back due: Two Instances')).toHaveLength(1);
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});
