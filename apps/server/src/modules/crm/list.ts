import { and, desc, eq, gte, inArray, isNotNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  ALL_STATUSES,
  maskEmail,
  maskPhone,
  type LeadItem,
  type LeadListQuery,
  type LeadListResponse,
  type LeadNote,
} from '@platform/domain';
import type { DbOrTx } from '../../db/client.ts';
import { leadNotes, leads, users } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import {
  countBound,
  countUnlessWalking,
  escapeLike,
  offsetOf,
  pageMeta,
  searchAny,
  walkFrom,
  walkOffset,
  type Walk,
} from '../../lib/paging.ts';
import type { StaffActor } from '../../lib/staff-scope.ts';
import { isAgent, leadScope, masksContacts } from './scope.ts';
import {
  countLeads,
  filteredLeads,
  inOrder,
  leadCustomerFilter,
  leadCustomerQuery,
  newestLeadIds,
  sortedLeadIds,
  withCustomers,
  type LeadCtx,
} from './lead-customers.ts';
import { nextTasksOf } from './tasks.ts';

/** The lead lists of the CRM screens (back-office §2) and what each shows. */
export type LeadList =
  | { kind: 'sales'; type: 'all' | 'manual' | 'live' }
  | { kind: 'new'; type: 'live' | 'manual' }
  | { kind: 'clients' }
  | { kind: 'archived' }
  | { kind: 'retentions' }
  | { kind: 'affiliate' };

export interface LeadFilters {
  status?: string;
  startDate?: string;
  endDate?: string;
}

function listCondition(list: LeadList): SQL | undefined {
  switch (list.kind) {
    case 'sales':
      return and(eq(leads.group, 'sales'), list.type === 'all' ? undefined : eq(leads.source, list.type));
    case 'new':
      // Live and Manual Leads: every lead of that source still being worked (not archived).
      return and(eq(leads.source, list.type), ne(leads.group, 'archived'));
    case 'clients':
      return eq(leads.group, 'clients');
    case 'archived':
      return eq(leads.group, 'archived');
    case 'retentions':
      return eq(leads.group, 'retentions');
    case 'affiliate':
      return isNotNull(leads.userId);
  }
}

const dayAfter = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000);

function filterCondition(f: LeadFilters): SQL | undefined {
  if (f.startDate && f.endDate && f.startDate > f.endDate) throw new AppError('INVALID_DATE_RANGE');
  return and(
    f.status && f.status !== ALL_STATUSES ? eq(leads.leadStatus, f.status) : undefined,
    f.startDate ? gte(leads.createdAt, new Date(`${f.startDate}T00:00:00Z`)) : undefined,
    f.endDate ? lt(leads.createdAt, dayAfter(f.endDate)) : undefined,
  );
}

const manager = alias(users, 'lead_manager');
const agent = alias(users, 'lead_agent');
const retAgent = alias(users, 'lead_ret');
const affiliate = alias(users, 'lead_affiliate');
const linked = alias(users, 'lead_linked');

const person = (id: number | null, name: string | null) =>
  id !== null && name !== null ? { id, full_name: name } : null;
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** Approved deposits of the linked customer: the first is the FTD, the last the latest deposit. */
const depositAt = (fn: 'min' | 'max') =>
  sql<
    string | null
  >`(select ${sql.raw(fn)}(coalesce(d.reviewed_at, d.created_at)) from deposits d where d.user_id = ${leads.linkedUserId} and d.status = 'approved')`;

/**
 * Leads with everything the tables show, newest first. The page's ids are found first (an index walk), and only
 * those rows get their joins and deposit lookups, however deep the page.
 */
export async function loadLeads(
  db: DbOrTx,
  where: SQL,
  page: { limit: number; offset: number },
  masked = false,
): Promise<LeadItem[]> {
  const ids = (
    await db
      .select({ id: leads.id })
      .from(leads)
      .where(where)
      .orderBy(desc(leads.id))
      .limit(page.limit)
      .offset(page.offset)
  ).map((r) => r.id);
  if (ids.length === 0) return [];
  const rows = await db
    .select({
      l: leads,
      managerName: manager.fullName,
      agentName: agent.fullName,
      retName: retAgent.fullName,
      affiliateName: affiliate.fullName,
      linkedRole: linked.roleId,
      linkedVerified: linked.isEmailVerified,
      linkedSeen: linked.lastSeenAt,
      ftdAt: depositAt('min'),
      depositedAt: depositAt('max'),
    })
    .from(leads)
    .leftJoin(manager, eq(manager.id, leads.managerId))
    .leftJoin(agent, eq(agent.id, leads.agentId))
    .leftJoin(retAgent, eq(retAgent.id, leads.retId))
    .leftJoin(affiliate, eq(affiliate.id, leads.userId))
    .leftJoin(linked, eq(linked.id, leads.linkedUserId))
    .where(inArray(leads.id, ids))
    .orderBy(desc(leads.id));
  const shown = rows.map((r) => r.l.id);
  const [notes, next] = await Promise.all([notesOf(db, shown), nextTasksOf(db, shown)]);
  return rows.map(({ l, ...r }) => ({
    id: l.id,
    first_name: l.firstName,
    last_name: l.lastName,
    email: masked && l.email ? maskEmail(l.email) : l.email,
    phone: masked && l.phone ? maskPhone(l.phone) : l.phone,
    notes: notes.get(l.id) ?? [],
    country: l.country,
    city: l.city,
    funnel_link: l.funnelLink,
    reference: l.reference,
    lead_source_id: l.leadSourceId,
    lead_status: l.leadStatus,
    group: l.group as LeadItem['group'],
    source: l.source as LeadItem['source'],
    manager: person(l.managerId, r.managerName),
    agent: person(l.agentId, r.agentName),
    retAgent: person(l.retId, r.retName),
    manager_id: l.managerId,
    agent_id: l.agentId,
    ret_id: l.retId,
    created_at: l.createdAt.toISOString(),
    deposited_at: iso(r.depositedAt),
    ftd_at: iso(r.ftdAt),
    last_access: iso(r.linkedSeen),
    user: person(l.userId, r.affiliateName),
    linked: l.linkedUserId !== null ? { id: l.linkedUserId } : null,
    role_id: r.linkedRole,
    is_email_verified: r.linkedVerified,
    masked,
    next_task: next.get(l.id) ?? null,
    customer: null,
  }));
}

async function notesOf(db: DbOrTx, ids: number[]): Promise<Map<number, LeadNote[]>> {
  const out = new Map<number, LeadNote[]>();
  if (ids.length === 0) return out;
  const rows = await db
    .select({ n: leadNotes, name: users.fullName })
    .from(leadNotes)
    .leftJoin(users, eq(users.id, leadNotes.userId))
    .where(inArray(leadNotes.leadId, ids))
    .orderBy(desc(leadNotes.id));
  for (const { n, name } of rows) {
    const list = out.get(n.leadId) ?? [];
    list.push({ id: n.id, content: n.content, created_at: n.createdAt.toISOString(), user: person(n.userId, name) });
    out.set(n.leadId, list);
  }
  return out;
}

/** The text the trigram index covers (migration 0009_crm: leads_search_trgm); the search must use the same expression. */
const searchText = sql`(coalesce(${leads.firstName}, '') || ' ' || coalesce(${leads.lastName}, '') || ' ' || coalesce(${leads.email}, '') || ' ' || coalesce(${leads.phone}, '') || ' ' || coalesce(${leads.reference}, ''))`;

/**
 * "Contains" search over name, email, phone and reference, through the trigram index. Masked viewers cannot search
 * by the hidden values (that would reveal them letter by letter): their matches must also be in a visible field.
 */
function searchLeads(search: string | undefined, masked: boolean): SQL | undefined {
  const s = search?.trim();
  if (!s) return undefined;
  const pattern = `%${escapeLike(s)}%`;
  return and(
    sql`${searchText} ilike ${pattern}`,
    masked ? searchAny(s, [leads.firstName, leads.lastName, leads.reference]) : undefined,
  );
}

/**
 * One page of a CRM lead list, in the viewer's scope, newest first, searched by name, email, phone or reference, and
 * filtered or sorted by the linked customer's figures (Customer 360, lead-customers.ts).
 */
export async function listLeads(
  ctx: LeadCtx,
  actor: StaffActor,
  list: LeadList,
  filters: LeadFilters,
  q: LeadListQuery & Walk,
): Promise<LeadListResponse> {
  // The agent filters belong to admins and managers (spec §6).
  if ((q.agentId !== undefined || q.retId !== undefined) && isAgent(actor)) throw new AppError('FORBIDDEN');
  const { db } = ctx;
  const customer = await leadCustomerQuery(ctx, actor, q);
  const masked = await masksContacts(db, actor);
  const base = and(
    leadScope(actor),
    listCondition(list),
    filterCondition(filters),
    list.kind === 'sales' && q.agentId !== undefined ? eq(leads.agentId, q.agentId) : undefined,
    list.kind === 'retentions' && q.retId !== undefined ? eq(leads.retId, q.retId) : undefined,
    searchLeads(q.search, masked),
  )!;
  const customerFilter = leadCustomerFilter(customer);
  const where = and(base, customerFilter)!;
  // Like trades and customers, a list of a million leads counts only a window past the page shown (lib/paging.ts).
  const bound = countBound(q);
  // Only leads with a customer pass a customer filter: a list with none answers at once, and a list with few (a sales
  // list, an agent's own) reads those leads first (lead-customers.ts filteredLeads).
  const source = customerFilter ? await filteredLeads(db, base, customerFilter) : { from: sql`${leads}`, where };
  if (source === null) return { data: [], meta: pageMeta(q, 0, bound) };
  const load = (ids: number[]) => inOrder(ids, (w, page) => loadLeads(db, w, page, masked));
  const [[{ n }], data] = await Promise.all([
    countUnlessWalking(q, async () => [{ n: await countLeads(db, source, bound) }]),
    customer.sort
      ? sortedLeadIds(db, base, customerFilter, customer, { limit: q.limit, offset: offsetOf(q) }).then(load)
      : customerFilter
        ? newestLeadIds(db, source, { limit: q.limit, offset: walkOffset(q), before: walkFrom(q, leads.id) }).then(load)
        : loadLeads(db, and(where, walkFrom(q, leads.id))!, { limit: q.limit, offset: walkOffset(q) }, masked),
  ]);
  return { data: await withCustomers(ctx, actor, data), meta: pageMeta(q, n, bound) };
}

/** One lead in the viewer's scope as the tables show it, or 404. */
export async function getLead(db: DbOrTx, actor: StaffActor, id: number): Promise<LeadItem> {
  const masked = await masksContacts(db, actor);
  const [lead] = await loadLeads(db, and(leadScope(actor), eq(leads.id, id))!, { limit: 1, offset: 0 }, masked);
  if (!lead) throw new AppError('LEAD_NOT_FOUND');
  return lead;
}
