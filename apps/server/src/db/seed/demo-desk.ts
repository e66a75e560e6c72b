import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../client.ts';
import { crmTasks, leads, teamMembers, teams, users } from '../schema.ts';

/**
 * The demo sales desk, with the demo leads: a team of the demo manager with the demo sales and retention agents (so the
 * manager follows their tasks), and a few call-backs and tasks of theirs (done, missed, due today and later). Their
 * reminders come from the minute sweep at their time (modules/crm/tasks.ts); the missed one was reminded already.
 */
export async function seedDemoDesk(db: DbOrTx): Promise<void> {
  const staff = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(inArray(users.email, ['manager@demo.test', 'agent@demo.test', 'retention@demo.test']));
  const id = (email: string) => staff.find((s) => s.email === email)?.id;
  const manager = id('manager@demo.test');
  const agent = id('agent@demo.test');
  const retention = id('retention@demo.test');
  if (!manager || !agent || !retention) return;
  const [team] = await db
    .insert(teams)
    .values({ name: 'Demo Sales Desk', code: 'DEMO', managerId: manager })
    .returning();
  await db.insert(teamMembers).values([
    { teamId: team.id, userId: agent },
    { teamId: team.id, userId: retention },
  ]);

  const leadsOf = async (column: typeof leads.agentId | typeof leads.retId, who: number) =>
    db
      .select({ id: leads.id })
      .from(leads)
      .where(and(eq(column, who), isNull(leads.deletedAt)))
      .orderBy(asc(leads.id))
      .limit(4);
  const sales = await leadsOf(leads.agentId, agent);
  const retained = await leadsOf(leads.retId, retention);
  const now = Date.now();
  const at = (hours: number) => new Date(now + hours * 3_600_000);
  const rows: Array<typeof crmTasks.$inferInsert> = [];
  if (sales.length >= 4)
    rows.push(
      {
        ownerId: agent,
        createdBy: agent,
        leadId: sales[0].id,
        kind: 'callback',
        note: 'Asked to call back after lunch',
        dueAt: at(-26),
        notifiedAt: at(-26),
        doneAt: at(-25),
        doneBy: agent,
      },
      {
        ownerId: agent,
        createdBy: agent,
        leadId: sales[1].id,
        kind: 'callback',
        note: 'No answer twice, try again',
        dueAt: at(-3),
        notifiedAt: at(-3),
      },
      {
        ownerId: agent,
        createdBy: agent,
        leadId: sales[2].id,
        kind: 'callback',
        note: 'Wants the platform tour',
        dueAt: at(2),
      },
      {
        ownerId: agent,
        createdBy: agent,
        leadId: sales[3].id,
        kind: 'task',
        note: 'Send the pricing plans by email',
        dueAt: at(26),
      },
    );
  if (retained.length >= 1)
    rows.push({
      ownerId: retention,
      createdBy: retention,
      leadId: retained[0].id,
      kind: 'callback',
      note: 'Check in after the first deposit',
      dueAt: at(5),
    });
  if (rows.length > 0) await db.insert(crmTasks).values(rows);
}
