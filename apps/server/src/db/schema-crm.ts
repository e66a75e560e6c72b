import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import type { LeadCsvReport } from '@platform/domain';
import { bytea, createdAt } from './schema-columns.ts';
import { users } from './schema-core.ts';

/**
 * CRM sales statuses (back-office §2 CRM configuration): the values a lead's status may take. Exactly one is the
 * default (partial unique index); leads reference the status by its text, so a rename follows to every lead and a
 * status still in use cannot be deleted.
 */
export const salesStatuses = pgTable(
  'sales_statuses',
  {
    id: serial('id').primaryKey(),
    status: varchar('status', { length: 60 }).notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('sales_statuses_status_unique').on(t.status),
    uniqueIndex('sales_statuses_one_default').on(t.isDefault).where(sql`${t.isDefault}`),
  ],
);

/**
 * CRM leads (back-office §3 Lead). `group` is the CRM list the lead sits in: sales, retentions, archived, or clients
 * once converted into a customer (`linked_user_id`). `source` is how it came in: manual (staff), live (sign-up or
 * intake), affiliate (brought by `user_id`). Deleted leads are kept and hidden (`deleted_at`). Deposit dates and last
 * access are read from the linked customer's records when listed, never copied.
 */
export const leads = pgTable(
  'leads',
  {
    id: serial('id').primaryKey(),
    firstName: varchar('first_name', { length: 100 }).notNull(),
    lastName: varchar('last_name', { length: 100 }),
    email: varchar('email', { length: 255 }),
    phone: varchar('phone', { length: 32 }),
    country: varchar('country', { length: 100 }),
    city: varchar('city', { length: 100 }),
    funnelLink: varchar('funnel_link', { length: 500 }),
    reference: varchar('reference', { length: 120 }),
    leadSourceId: varchar('lead_source_id', { length: 120 }),
    leadStatus: varchar('lead_status', { length: 60 })
      .notNull()
      .references(() => salesStatuses.status, { onUpdate: 'cascade', onDelete: 'restrict' }),
    group: varchar('group', { length: 12 }).notNull().default('sales'),
    source: varchar('source', { length: 12 }).notNull().default('manual'),
    managerId: integer('manager_id').references(() => users.id, { onDelete: 'set null' }),
    agentId: integer('agent_id').references(() => users.id, { onDelete: 'set null' }),
    retId: integer('ret_id').references(() => users.id, { onDelete: 'set null' }),
    /** The affiliate who brought the lead. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The customer the lead became. */
    linkedUserId: integer('linked_user_id').references(() => users.id, { onDelete: 'restrict' }),
    /**
     * The linked customer's KYC state and first deposit time (null without a customer), copied by triggers whenever
     * either side changes (migration 0041_customer_list_counts): a list filtered by them counts its leads from an index
     * of its own instead of visiting each customer. The lists still show the customer's own figures.
     */
    customerKycStatus: varchar('customer_kyc_status', { length: 10 }),
    customerFtdAt: timestamp('customer_ftd_at', { withTimezone: true, mode: 'date' }),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    check('leads_group_check', sql`${t.group} in ('sales', 'retentions', 'archived', 'clients')`),
    check('leads_source_check', sql`${t.source} in ('manual', 'live', 'affiliate')`),
    uniqueIndex('leads_linked_user_unique').on(t.linkedUserId),
    index('leads_group_idx').on(t.group, t.id).where(sql`${t.deletedAt} is null`),
    index('leads_group_status_idx').on(t.group, t.leadStatus, t.id).where(sql`${t.deletedAt} is null`),
    index('leads_group_created_idx').on(t.group, t.createdAt).where(sql`${t.deletedAt} is null`),
    index('leads_source_idx').on(t.source, t.id).where(sql`${t.deletedAt} is null`),
    // An agent's lists are one group of their leads: the group in the index spares a visit to each row.
    index('leads_agent_idx').on(t.agentId, t.group, t.id).where(sql`${t.deletedAt} is null`),
    index('leads_ret_idx').on(t.retId, t.group, t.id).where(sql`${t.deletedAt} is null`),
    index('leads_user_idx').on(t.userId, t.id).where(sql`${t.deletedAt} is null`),
    index('leads_status_idx').on(t.leadStatus),
    // The leads of a list that are customers: a list sorted by a customer's figure reads them first when they are few
    // (crm/lead-customers.ts).
    index('leads_customer_idx')
      .on(t.group, t.linkedUserId)
      .where(sql`${t.deletedAt} is null and ${t.linkedUserId} is not null`),
    // The same for an agent's and a retention agent's own lists (so a list of theirs without customers knows it at once).
    index('leads_agent_customer_idx')
      .on(t.agentId, t.group)
      .where(sql`${t.deletedAt} is null and ${t.linkedUserId} is not null`),
    index('leads_ret_customer_idx')
      .on(t.retId, t.group)
      .where(sql`${t.deletedAt} is null and ${t.linkedUserId} is not null`),
    // A list's leads by their customer's KYC state or first deposit (Customer 360 filters), newest first.
    index('leads_customer_kyc_idx')
      .on(t.group, t.customerKycStatus, t.id)
      .where(sql`${t.deletedAt} is null and ${t.linkedUserId} is not null`),
    index('leads_customer_ftd_idx')
      .on(t.group, t.customerFtdAt, t.id)
      .where(sql`${t.deletedAt} is null and ${t.linkedUserId} is not null`),
    // The lead-intake API recognises a lead it already received by its email (per affiliate, or the site's live leads).
    index('leads_email_idx').on(sql`lower(${t.email})`, t.userId).where(sql`${t.deletedAt} is null`),
  ],
);

/** Notes staff write on a lead (back-office §2 Notes modal). */
export const leadNotes = pgTable(
  'lead_notes',
  {
    id: serial('id').primaryKey(),
    leadId: integer('lead_id')
      .notNull()
      .references(() => leads.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    content: text('content').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('lead_notes_lead_idx').on(t.leadId, t.id)],
);

/**
 * An affiliate's API key for the lead-intake API (back-office §3 "Affiliate API key"): one per affiliate, replaced on
 * every generation so the old key stops working at once. Only its SHA-256 hash is kept (a database leak yields no
 * usable key) and its first characters, to recognise it on the API Key page.
 */
export const affiliateApiKeys = pgTable(
  'affiliate_api_keys',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    keyHash: varchar('key_hash', { length: 64 }).notNull(),
    prefix: varchar('prefix', { length: 16 }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('affiliate_api_keys_hash_unique').on(t.keyHash)],
);

/**
 * CRM teams (back-office §2 CRM configuration, §3 Team): a manager (role 2) and members who are sales agents (5) or
 * retention agents (6). Deleting a team deletes its memberships only; leads keep their agents.
 */
export const teams = pgTable(
  'teams',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 100 }).notNull(),
    code: varchar('code', { length: 50 }),
    managerId: integer('manager_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('teams_code_unique').on(sql`lower(${t.code})`), index('teams_manager_idx').on(t.managerId)],
);

export const teamMembers = pgTable(
  'team_members',
  {
    teamId: integer('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] }), index('team_members_user_idx').on(t.userId)],
);

/**
 * Leads CSV uploads (back-office §2 Upload Leads): the request checks the file and records it here, a background job
 * (`crm.import-leads`) imports it. The uploader's role and IP are kept so the job imports as they would have (an
 * affiliate's leads are theirs, a manager's are managed by them). The file stays in the row, gzipped, where every
 * instance's worker reaches it, until the import is done or failed. The job marks the import done in the transaction
 * that inserts its leads, so a retry or a second worker finds it done and inserts nothing.
 */
export const leadImports = pgTable(
  'lead_imports',
  {
    id: serial('id').primaryKey(),
    uploadedBy: integer('uploaded_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    uploaderRole: integer('uploader_role').notNull(),
    uploaderIp: varchar('uploader_ip', { length: 64 }),
    fileName: varchar('file_name', { length: 255 }).notNull(),
    rowCount: integer('row_count').notNull(),
    /** The uploaded file, gzipped; dropped once the import is done or failed. */
    file: bytea('file'),
    status: varchar('status', { length: 8 }).notNull().default('queued'),
    /** Runs begun, counting runs a crash cut short: the job gives up after a few. */
    attempts: integer('attempts').notNull().default(0),
    report: jsonb('report').$type<LeadCsvReport>(),
    error: text('error'),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    check('lead_imports_status_check', sql`${t.status} in ('queued', 'running', 'done', 'failed')`),
    index('lead_imports_uploader_idx').on(t.uploadedBy, t.id),
  ],
);

/**
 * Call-backs and tasks staff schedule on a lead or a customer (docs/decisions.md, "Tasks and call-backs"). The owner
 * is whom it reminds; the reminder is a delayed job at `due_at`, and `notified_at` is set by the one conditional
 * update that sends it, so a retry, a second instance or the sweep never reminds twice. Rows are never deleted: done
 * ones keep `done_at`, missed ones are past due and not done.
 */
export const crmTasks = pgTable(
  'crm_tasks',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    leadId: integer('lead_id').references(() => leads.id, { onDelete: 'cascade' }),
    customerId: integer('customer_id').references(() => users.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 10 }).notNull().default('callback'),
    note: varchar('note', { length: 500 }),
    dueAt: timestamp('due_at', { withTimezone: true, mode: 'date' }).notNull(),
    doneAt: timestamp('done_at', { withTimezone: true, mode: 'date' }),
    doneBy: integer('done_by').references(() => users.id, { onDelete: 'set null' }),
    notifiedAt: timestamp('notified_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    check('crm_tasks_kind_check', sql`${t.kind} in ('callback', 'task')`),
    check('crm_tasks_subject_check', sql`(${t.leadId} is null) <> (${t.customerId} is null)`),
    index('crm_tasks_owner_due_idx').on(t.ownerId, t.dueAt),
    index('crm_tasks_lead_due_idx').on(t.leadId, t.dueAt),
    index('crm_tasks_customer_due_idx').on(t.customerId, t.dueAt),
    // The sweep's look-up of reminders still to send.
    index('crm_tasks_unsent_idx').on(t.dueAt).where(sql`${t.notifiedAt} is null and ${t.doneAt} is null`),
  ],
);

/**
 * The call log: every click-to-call attempt on a lead (or a bare number, kept by its last digits only), through Voiso
 * or the built-in sandbox. `outcome` is the sales status the caller recorded after it; `disposition` and
 * `duration_s` come from the provider's call record when it has one.
 */
export const crmCalls = pgTable(
  'crm_calls',
  {
    id: serial('id').primaryKey(),
    leadId: integer('lead_id').references(() => leads.id, { onDelete: 'cascade' }),
    callerId: integer('caller_id').references(() => users.id, { onDelete: 'set null' }),
    /** The softphone that rang: the Voiso agent's email or extension. */
    agent: varchar('agent', { length: 255 }).notNull(),
    /** Calls without a lead: the number's last digits, masked. */
    numberTail: varchar('number_tail', { length: 16 }),
    provider: varchar('provider', { length: 10 }).notNull(),
    callId: varchar('call_id', { length: 100 }),
    status: varchar('status', { length: 10 }).notNull(),
    reason: varchar('reason', { length: 300 }),
    outcome: varchar('outcome', { length: 60 }),
    outcomeAt: timestamp('outcome_at', { withTimezone: true, mode: 'date' }),
    disposition: varchar('disposition', { length: 30 }),
    durationS: integer('duration_s'),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    check('crm_calls_status_check', sql`${t.status} in ('started', 'failed')`),
    check('crm_calls_provider_check', sql`${t.provider} in ('voiso', 'sandbox')`),
    index('crm_calls_lead_idx').on(t.leadId, t.id),
    index('crm_calls_caller_idx').on(t.callerId, t.id),
    // The telephony's call-ended report finds its call by the provider's call id.
    index('crm_calls_call_id_idx').on(t.callId).where(sql`${t.callId} is not null`),
  ],
);
