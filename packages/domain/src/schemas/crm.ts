import { z } from 'zod';
import { isCountry } from '../countries.ts';
import { PagedQuery, optionalString, paged, parseIsoDate, requiredString, secretString } from './common.ts';
import { UNASSIGNED } from './customers.ts';
import { NextTask } from './crm-tasks.ts';
import { Customer360, Customer360Query } from './customer-360.ts';

/**
 * CRM (back-office spec §2 CRM lead screens and CRM configuration, §3 Lead, §4 lead groups, §5, §9). The same
 * schemas validate the server's input and the screens' forms.
 */

/** The CRM list a lead sits in. Clients are converted leads (linked to a customer). */
export const LEAD_GROUPS = ['sales', 'retentions', 'archived', 'clients'] as const;
export type LeadGroup = (typeof LEAD_GROUPS)[number];

/** Where a group may be moved by bulk actions (spec §4); a lead becomes a client only by conversion. */
export const LEAD_MOVES: Record<LeadGroup, readonly LeadGroup[]> = {
  clients: ['sales', 'retentions', 'archived'],
  archived: ['sales'],
  retentions: ['sales', 'archived'],
  sales: ['retentions', 'archived'],
};
export const canMoveLead = (from: LeadGroup, to: LeadGroup): boolean => LEAD_MOVES[from].includes(to);

/** How a lead came in: added by staff, live (sign-up or intake), or brought by an affiliate. */
export const LEAD_SOURCES = ['manual', 'live', 'affiliate'] as const;
export type LeadSource = (typeof LEAD_SOURCES)[number];

/** The status filter's "everything" value (spec §9). */
export const ALL_STATUSES = 'All';
/** Status in a url: spaces become underscores (spec §2), so status names may not contain underscores. */
export const statusToUrl = (status: string): string => status.replace(/ /g, '_');
export const statusFromUrl = (value: string): string => value.replace(/_/g, ' ');

const urlStatus = z
  .string()
  .trim()
  .min(1)
  .max(60)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  .refine((s) => !/[\u0000-\u001f/\\]/.test(s), { error: 'Unknown status' })
  .transform(statusFromUrl);
const urlDate = z.string().refine((s) => parseIsoDate(s) !== null, { error: 'Enter a real date as YYYY-MM-DD' });

const dateRange = {
  startDate: urlDate.optional(),
  endDate: urlDate.optional(),
};

/** /affiliate/leads/api/sales/{status}/{type}[/{startDate}/{endDate}] */
export const SalesLeadsParams = z.object({
  status: urlStatus,
  type: z.enum(['all', 'manual', 'live'], { error: 'Unknown list' }),
  ...dateRange,
});
/** /affiliate/leads/api/new/{status}/{type}[/{start}/{end}] (Live Leads, Manual Leads). */
export const NewLeadsParams = z.object({
  status: urlStatus,
  type: z.enum(['live', 'manual'], { error: 'Unknown list' }),
  ...dateRange,
});
/** /affiliate/leads/api/{clients|archived|retentions}/{status}[/{start}/{end}] */
export const GroupLeadsParams = z.object({ status: urlStatus, ...dateRange });

const filterId = z.coerce.number().int().positive().max(2_147_483_647);
export const LeadListQuery = PagedQuery.extend({
  agentId: filterId.optional(),
  retId: filterId.optional(),
  /** The affiliate list (/affiliate/leads/api) takes its filters as query parameters. */
  status: urlStatus.optional(),
  ...dateRange,
  ...Customer360Query.shape,
});
export type LeadListQuery = z.infer<typeof LeadListQuery>;

const person = z.object({ id: z.number(), full_name: z.string() }).nullable();
export const LeadNote = z.object({ id: z.number(), content: z.string(), created_at: z.string(), user: person });
export type LeadNote = z.infer<typeof LeadNote>;

export const LeadItem = z.object({
  id: z.number(),
  first_name: z.string(),
  last_name: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  notes: z.array(LeadNote),
  country: z.string().nullable(),
  city: z.string().nullable(),
  funnel_link: z.string().nullable(),
  reference: z.string().nullable(),
  lead_source_id: z.string().nullable(),
  lead_status: z.string(),
  group: z.enum(LEAD_GROUPS),
  source: z.enum(LEAD_SOURCES),
  manager: person,
  agent: person,
  retAgent: person,
  manager_id: z.number().nullable(),
  agent_id: z.number().nullable(),
  ret_id: z.number().nullable(),
  created_at: z.string(),
  deposited_at: z.string().nullable(),
  ftd_at: z.string().nullable(),
  last_access: z.string().nullable(),
  user: person,
  linked: z.object({ id: z.number() }).nullable(),
  role_id: z.number().nullable(),
  is_email_verified: z.boolean().nullable(),
  /** True when the viewer gets email and phone masked (agents with showUserInfoAgent off). */
  masked: z.boolean(),
  /** The linked customer's figures (Customer 360): null without a customer, and for affiliates; always sent. */
  customer: Customer360.nullable().optional(),
  /** The lead's earliest call-back or task not done yet (a missed one included). */
  next_task: NextTask.nullable().optional(),
});
export type LeadItem = z.infer<typeof LeadItem>;
export const LeadListResponse = paged(LeadItem);
export type LeadListResponse = z.infer<typeof LeadListResponse>;

const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);
const optionalEmail = z.preprocess(
  blankToNull,
  z
    .string()
    .trim()
    .max(255)
    .pipe(z.email({ error: 'Invalid email' }))
    .transform((e) => e.toLowerCase())
    .nullable()
    .optional(),
);
const optionalPhone = z.preprocess(
  blankToNull,
  z
    .string()
    .trim()
    .max(32)
    .regex(/^\+?[0-9 ()-]{5,}$/, { error: 'Invalid phone number' })
    .nullable()
    .optional(),
);
const optionalCountry = z.preprocess(
  blankToNull,
  z.string().trim().max(100).refine(isCountry, { error: 'Unknown country' }).nullable().optional(),
);
const optionalUrl = z.preprocess(
  blankToNull,
  z
    .string()
    .trim()
    .max(500)
    .refine((s) => /^https?:\/\/\S+$/i.test(s), { error: 'Enter a link starting with http:// or https://' })
    .nullable()
    .optional(),
);
export const leadStatusField = requiredString('Status is required', 60).refine((s) => !s.includes('_'), {
  error: 'Status cannot contain "_"',
});

/** A picker's choice: a user id, or -2 / empty for unassigned (spec §9). */
export const assigneeId = z
  .preprocess(
    (v) => (v === '' || v === null || v === undefined ? UNASSIGNED : v),
    z.coerce.number().int().min(UNASSIGNED).max(2_147_483_647),
  )
  .refine((n) => n === UNASSIGNED || n > 0, { error: 'Choose someone from the list' })
  .transform((n) => (n > 0 ? n : null));

/** The fields of a lead as staff and affiliates type them (shared by the add, edit and intake payloads). */
export const leadFields = {
  firstName: requiredString('First name is required', 100),
  lastName: optionalString(100),
  email: optionalEmail,
  phone: optionalPhone,
  country: optionalCountry,
  city: optionalString(100),
  funnelLink: optionalUrl,
  reference: optionalString(120),
  leadStatus: leadStatusField.optional(),
};

/** POST /admin/leads (spec §7 Add Lead). */
export const LeadCreateRequest = z.object(leadFields);
export type LeadCreateRequest = z.input<typeof LeadCreateRequest>;

/** PUT /admin/leads/{id} (spec §3 edit payload); -2 is unassigned. */
export const LeadUpdateRequest = z.object({
  ...leadFields,
  leadSourceId: optionalString(120),
  managerId: assigneeId.optional(),
  agentId: assigneeId.optional(),
  retId: assigneeId.optional(),
});
export type LeadUpdateRequest = z.input<typeof LeadUpdateRequest>;

const leadId = z.coerce.number().int().positive({ error: 'Invalid id' }).max(2_147_483_647, { error: 'Invalid id' });

/** PUT /admin/leads/bulk: move to a group, or assign a sales agent or a retention agent (-2 unassigns). */
export const LeadBulkRequest = z.object({
  ids: z
    .array(leadId, { error: 'Select at least one lead' })
    .min(1, { error: 'Select at least one lead' })
    .max(500, { error: 'At most 500 leads at once' }),
  data: z.union(
    [
      z.object({ group: z.enum(['sales', 'retentions', 'archived'], { error: 'Unknown group' }) }).strict(),
      z.object({ agentId: assigneeId }).strict(),
      z.object({ retId: assigneeId }).strict(),
    ],
    { error: 'Give a group, an agentId or a retId' },
  ),
});
export type LeadBulkRequest = z.input<typeof LeadBulkRequest>;

/** POST /admin/leads/convertLeadToUser */
export const LeadConvertRequest = z.object({
  id: leadId,
  password: secretString('Password is required').pipe(
    z.string().min(8, { error: 'Password must be at least 8 characters' }),
  ),
});
export type LeadConvertRequest = z.input<typeof LeadConvertRequest>;
export const LeadConvertResponse = z.object({ message: z.string(), userId: z.number() });

/** POST /admin/crm/note (spec §7: leadId defaults to -2 with no lead, which is refused). */
export const LeadNoteRequest = z.object({
  content: requiredString('Content is required', 2000),
  leadId: z.coerce
    .number()
    .int()
    .max(2_147_483_647)
    .refine((n) => n > 0, { error: 'Choose a lead' }),
});
export type LeadNoteRequest = z.input<typeof LeadNoteRequest>;
export const LeadNoteResponse = z.object({ message: z.string(), note: LeadNote });
export type LeadNoteResponse = z.infer<typeof LeadNoteResponse>;

/** Note preview in the table: 12 characters and an ellipsis (spec §2). */
export const notePreview = (content: string): string => (content.length > 12 ? `${content.slice(0, 12)}…` : content);

/** A lead's history from the audit trail (moves, assignments, status changes, notes). */
export const LeadHistoryItem = z.object({
  id: z.number(),
  action: z.string(),
  actor: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  created_at: z.string(),
});
export const LeadHistoryResponse = z.object({ data: z.array(LeadHistoryItem) });
export type LeadHistoryResponse = z.infer<typeof LeadHistoryResponse>;
export type LeadHistoryItem = z.infer<typeof LeadHistoryItem>;

/* Sales statuses (CRM configuration). */
export const SalesStatusItem = z.object({
  id: z.number(),
  status: z.string(),
  is_default: z.boolean(),
  leads: z.number(),
});
export type SalesStatusItem = z.infer<typeof SalesStatusItem>;
export const SalesStatusListResponse = paged(SalesStatusItem);
export type SalesStatusListResponse = z.infer<typeof SalesStatusListResponse>;
export const SalesStatusListQuery = PagedQuery.extend({ limit: z.coerce.number().int().min(1).max(999).default(15) });
export const SalesStatusRequest = z.object({
  status: leadStatusField,
  isDefault: z.boolean({ error: 'isDefault is required' }),
});
export type SalesStatusRequest = z.input<typeof SalesStatusRequest>;
