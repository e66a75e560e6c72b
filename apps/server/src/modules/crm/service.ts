import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  canMoveLead,
  type LeadBulkRequest,
  type LeadConvertRequest,
  type LeadCreateRequest,
  type LeadGroup,
  type LeadHistoryItem,
  type LeadNote,
  type LeadNoteRequest,
  type LeadUpdateRequest,
} from '@platform/domain';
import type { AppContext } from '../../context.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { auditLogs, leadNotes, leads, salesStatuses, userProfiles, users } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { hashPassword } from '../../lib/crypto.ts';
import { AppError, fieldError, isUniqueViolation } from '../../lib/errors.ts';
import type { StaffActor } from '../../lib/staff-scope.ts';
import { getBranding } from '../settings/service.ts';
import { openCustomerWallets } from '../wallets/open.ts';
import { isAgent, leadScope, masksContacts } from './scope.ts';
import { defaultSalesStatus } from './statuses.ts';

type Ctx = Pick<AppContext, 'db'>;
type LeadRow = typeof leads.$inferSelect;
type CreateInput = z.output<typeof LeadCreateRequest>;
type UpdateInput = z.output<typeof LeadUpdateRequest>;
type BulkInput = z.output<typeof LeadBulkRequest>;

/** What the audit trail keeps of a lead. */
export function snapshot(l: LeadRow): Record<string, unknown> {
  return {
    first_name: l.firstName,
    last_name: l.lastName,
    email: l.email,
    phone: l.phone,
    country: l.country,
    city: l.city,
    funnel_link: l.funnelLink,
    reference: l.reference,
    lead_source_id: l.leadSourceId,
    lead_status: l.leadStatus,
    group: l.group,
    manager_id: l.managerId,
    agent_id: l.agentId,
    ret_id: l.retId,
    linked_user_id: l.linkedUserId,
  };
}

const audit = (
  tx: DbOrTx,
  actor: StaffActor,
  lead: { id: number; linkedUserId: number | null },
  action: string,
  before: unknown,
  after: unknown,
) =>
  writeAudit(tx, {
    actorId: actor.id,
    targetUserId: lead.linkedUserId,
    action,
    before: before as Record<string, unknown> | null,
    after: after as Record<string, unknown> | null,
    ip: actor.ip,
    subjectType: 'lead',
    subjectId: lead.id,
  });

async function assertStatus(tx: DbOrTx, status: string): Promise<void> {
  const [row] = await tx
    .select({ id: salesStatuses.id })
    .from(salesStatuses)
    .where(eq(salesStatuses.status, status))
    .limit(1);
  if (!row) throw fieldError('leadStatus', 'Choose a status from the list.');
}

/** An assignee must be an active, not deleted user of the picker's role (managers 2, agents 5, retention agents 6). */
async function assertAssignee(tx: DbOrTx, field: string, id: number | null, roleId: 2 | 5 | 6): Promise<void> {
  if (id === null) return;
  const [u] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, id), eq(users.roleId, roleId), eq(users.isActive, true), isNull(users.deletedAt)));
  if (!u)
    throw new AppError('ASSIGNEE_NOT_FOUND', undefined, {
      [field]: 'Choose an active staff member of the right role.',
    });
}

/** Locks one lead in the actor's scope, or 404. */
async function lockLead(tx: Tx, actor: StaffActor, id: number): Promise<LeadRow> {
  const [l] = await tx
    .select()
    .from(leads)
    .where(and(eq(leads.id, id), leadScope(actor)))
    .for('update');
  if (!l) throw new AppError('LEAD_NOT_FOUND');
  return l;
}

/**
 * POST /admin/leads: a manual lead (admins, managers), or an affiliate's own lead. A manager's lead is managed by
 * them. The status defaults to the default sales status.
 */
export async function createLead(ctx: Ctx, actor: StaffActor, input: CreateInput): Promise<number> {
  return ctx.db.transaction(async (tx) => {
    const leadStatus = input.leadStatus ?? (await defaultSalesStatus(tx));
    await assertStatus(tx, leadStatus);
    const [l] = await tx
      .insert(leads)
      .values({
        firstName: input.firstName,
        lastName: input.lastName || null,
        email: input.email ?? null,
        phone: input.phone ?? null,
        country: input.country ?? null,
        city: input.city || null,
        funnelLink: input.funnelLink ?? null,
        reference: input.reference || null,
        leadStatus,
        group: 'sales',
        source: actor.roleId === 4 ? 'affiliate' : 'manual',
        managerId: actor.roleId === 2 ? actor.id : null,
        userId: actor.roleId === 4 ? actor.id : null,
      })
      .returning();
    await audit(tx, actor, l, 'lead.create', null, snapshot(l));
    return l.id;
  });
}

/**
 * PUT /admin/leads/{id}. Agents (5, 6) edit the plain fields only: status and assignments stay, and while their
 * contacts are masked the email and phone stay too (their form leaves them out). Only admins change the manager.
 */
export async function updateLead(ctx: Ctx, actor: StaffActor, id: number, input: UpdateInput): Promise<void> {
  const masked = await masksContacts(ctx.db, actor);
  await ctx.db.transaction(async (tx) => {
    const before = await lockLead(tx, actor, id);
    const agentRole = isAgent(actor);
    const leadStatus = agentRole || input.leadStatus === undefined ? before.leadStatus : input.leadStatus;
    if (leadStatus !== before.leadStatus) await assertStatus(tx, leadStatus);
    const managerId = actor.roleId === 1 && input.managerId !== undefined ? input.managerId : before.managerId;
    const agentId = !agentRole && input.agentId !== undefined ? input.agentId : before.agentId;
    const retId = !agentRole && input.retId !== undefined ? input.retId : before.retId;
    if (managerId !== before.managerId) await assertAssignee(tx, 'managerId', managerId, 2);
    if (agentId !== before.agentId) await assertAssignee(tx, 'agentId', agentId, 5);
    if (retId !== before.retId) await assertAssignee(tx, 'retId', retId, 6);
    const [after] = await tx
      .update(leads)
      .set({
        firstName: input.firstName,
        lastName: input.lastName || null,
        // Left out means unchanged; masked viewers never change what they cannot see.
        email: masked || input.email === undefined ? before.email : input.email,
        phone: masked || input.phone === undefined ? before.phone : input.phone,
        country: input.country ?? null,
        city: input.city || null,
        funnelLink: input.funnelLink ?? null,
        reference: input.reference || null,
        leadSourceId: input.leadSourceId || null,
        leadStatus,
        managerId,
        agentId,
        retId,
      })
      .where(eq(leads.id, id))
      .returning();
    await audit(tx, actor, after, 'lead.update', snapshot(before), snapshot(after));
    // A status change also stands on its own in the history, as an outcome does (outcome.ts).
    if (after.leadStatus !== before.leadStatus)
      await audit(
        tx,
        actor,
        after,
        'lead.status',
        { lead_status: before.leadStatus },
        { lead_status: after.leadStatus },
      );
  });
}

/** DELETE /admin/leads/{id} and /affiliate/leads/{id}: the lead is hidden, never erased (it is a sales record). */
export async function deleteLead(ctx: Ctx, actor: StaffActor, id: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const before = await lockLead(tx, actor, id);
    await tx.update(leads).set({ deletedAt: new Date() }).where(eq(leads.id, id));
    await audit(tx, actor, before, 'lead.delete', snapshot(before), { deleted: true });
  });
}

/**
 * PUT /admin/leads/bulk. Every id must be a lead in the actor's scope (else 404, nothing changes). Group moves follow
 * back-office §4 (a lead already in the target group is left as it is; any other move refused is a 409). Agents may
 * not send leads to sales nor assign agents (403).
 */
export async function bulkUpdateLeads(ctx: Ctx, actor: StaffActor, input: BulkInput): Promise<'moved' | 'assigned'> {
  const data = input.data;
  const agentRole = isAgent(actor) || actor.roleId === 4;
  if (agentRole && (!('group' in data) || data.group === 'sales')) throw new AppError('FORBIDDEN');
  if ('agentId' in data) await assertAssignee(ctx.db, 'agentId', data.agentId, 5);
  if ('retId' in data) await assertAssignee(ctx.db, 'retId', data.retId, 6);
  const ids = [...new Set(input.ids)];
  await ctx.db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(leads)
      .where(and(inArray(leads.id, ids), leadScope(actor)))
      .orderBy(asc(leads.id))
      .for('update');
    if (rows.length !== ids.length) throw new AppError('LEAD_NOT_FOUND');
    for (const before of rows) {
      if ('group' in data) {
        if (before.group === data.group) continue;
        if (!canMoveLead(before.group as LeadGroup, data.group)) throw new AppError('LEAD_MOVE_NOT_ALLOWED');
        await tx.update(leads).set({ group: data.group }).where(eq(leads.id, before.id));
        await audit(tx, actor, before, 'lead.move', { group: before.group }, { group: data.group });
      } else if ('agentId' in data) {
        if (before.agentId === data.agentId) continue;
        await tx.update(leads).set({ agentId: data.agentId }).where(eq(leads.id, before.id));
        await audit(tx, actor, before, 'lead.assign_agent', { agent_id: before.agentId }, { agent_id: data.agentId });
      } else {
        if (before.retId === data.retId) continue;
        await tx.update(leads).set({ retId: data.retId }).where(eq(leads.id, before.id));
        await audit(tx, actor, before, 'lead.assign_retention', { ret_id: before.retId }, { ret_id: data.retId });
      }
    }
  });
  return 'group' in data ? 'moved' : 'assigned';
}

const emailTaken = () =>
  new AppError('EMAIL_TAKEN', undefined, { email: 'An account with this email already exists.' });

/**
 * POST /admin/leads/convertLeadToUser: the lead becomes a customer with the wallets sign-up opens, linked to the lead,
 * which moves to Clients and keeps its manager, agent and retention agent. The customer is managed by the lead's manager.
 * Like every account staff create, it starts with the email verified (back-office spec: is_email_verified defaults to
 * true), so the customer signs in at once with the password staff set; the Convert dialog says so.
 */
export async function convertLead(
  ctx: AppContext,
  actor: StaffActor,
  input: z.output<typeof LeadConvertRequest>,
): Promise<number> {
  const branding = await getBranding(ctx.db);
  const passwordHash = await hashPassword(input.password);
  let created: number;
  try {
    created = await ctx.db.transaction(async (tx) => {
      const before = await lockLead(tx, actor, input.id);
      if (before.linkedUserId !== null) throw new AppError('LEAD_ALREADY_CONVERTED');
      if (!before.email) throw new AppError('LEAD_NEEDS_EMAIL');
      const [taken] = await tx
        .select({ id: users.id })
        .from(users)
        .where(sql`lower(${users.email}) = ${before.email.toLowerCase()}`)
        .limit(1);
      if (taken) throw emailTaken();
      const fullName = [before.firstName, before.lastName].filter(Boolean).join(' ').slice(0, 120);
      const [u] = await tx
        .insert(users)
        .values({ fullName, email: before.email, passwordHash, roleId: 3, isEmailVerified: true, isActive: true })
        .returning({ id: users.id });
      await tx.insert(userProfiles).values({
        userId: u.id,
        phone: before.phone,
        country: before.country,
        city: before.city,
        managerId: before.managerId,
      });
      await openCustomerWallets(tx, u.id, branding.appCurrency, branding.demoBalance);
      const [after] = await tx
        .update(leads)
        .set({ linkedUserId: u.id, group: 'clients' })
        .where(eq(leads.id, before.id))
        .returning();
      await writeAudit(tx, {
        actorId: actor.id,
        targetUserId: u.id,
        action: 'customer.create',
        after: { full_name: fullName, from_lead: before.id },
        ip: actor.ip,
      });
      await audit(tx, actor, after, 'lead.convert', snapshot(before), snapshot(after));
      return u.id;
    });
  } catch (err) {
    if (isUniqueViolation(err, 'users_email_unique')) throw emailTaken();
    throw err;
  }
  return created;
}

/** POST /admin/crm/note: a note on a lead in the writer's scope. */
export async function addNote(ctx: Ctx, actor: StaffActor, input: z.output<typeof LeadNoteRequest>): Promise<LeadNote> {
  return ctx.db.transaction(async (tx) => {
    const lead = await lockLead(tx, actor, input.leadId);
    const [n] = await tx
      .insert(leadNotes)
      .values({ leadId: lead.id, userId: actor.id, content: input.content })
      .returning();
    await audit(tx, actor, lead, 'lead.note', null, { note_id: n.id, content: n.content });
    const [me] = await tx.select({ name: users.fullName }).from(users).where(eq(users.id, actor.id));
    return {
      id: n.id,
      content: n.content,
      created_at: n.createdAt.toISOString(),
      user: { id: actor.id, full_name: me?.name ?? '' },
    };
  });
}

/** GET /admin/leads/{id}/history: the lead's audit trail, newest first (contacts masked away for masked viewers). */
export async function leadHistory(ctx: Ctx, actor: StaffActor, id: number): Promise<LeadHistoryItem[]> {
  const [lead] = await ctx.db
    .select({ id: leads.id })
    .from(leads)
    .where(and(eq(leads.id, id), leadScope(actor)));
  if (!lead) throw new AppError('LEAD_NOT_FOUND');
  const masked = await masksContacts(ctx.db, actor);
  const rows = await ctx.db
    .select({ a: auditLogs, actor: users.fullName })
    .from(auditLogs)
    .leftJoin(users, eq(users.id, auditLogs.actorId))
    .where(and(eq(auditLogs.subjectType, 'lead'), eq(auditLogs.subjectId, id)))
    .orderBy(desc(auditLogs.id))
    .limit(200);
  const hide = (v: unknown) => {
    if (!masked || !v || typeof v !== 'object') return v ?? null;
    const { email: _e, phone: _p, ...rest } = v as Record<string, unknown>;
    return rest;
  };
  return rows.map(({ a, actor: name }) => ({
    id: a.id,
    action: a.action,
    actor: name,
    before: hide(a.before),
    after: hide(a.after),
    created_at: a.createdAt.toISOString(),
  }));
}
