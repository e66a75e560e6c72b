import { z } from 'zod';
import { PageMeta, PagedQuery } from './common.ts';

/**
 * The sales floor beyond the spec's lead screens (docs/decisions.md, "Sales floor"): call outcomes, call-backs and
 * tasks with their reminders, and the call log. The same schemas validate the server's input and type the screens.
 */

const id = (what: string) =>
  z.coerce
    .number({ error: `Choose a ${what}` })
    .int()
    .positive({ error: `Choose a ${what}` })
    .max(2_147_483_647, { error: `Choose a ${what}` });

/** PUT /admin/leads/{id}/status: the lead's new sales status, one of the configured ones (the server checks). */
export const LeadStatusRequest = z.object({
  status: z.string({ error: 'Choose a status' }).trim().min(1, { error: 'Choose a status' }).max(60),
});
export type LeadStatusRequest = z.input<typeof LeadStatusRequest>;

export const TASK_KINDS = ['callback', 'task'] as const;
export type TaskKind = (typeof TASK_KINDS)[number];
export const TASK_NOTE_MAX = 500;
/** A reminder may be set at most this far ahead, and at most this many minutes in the past (a clock a little behind). */
export const TASK_MAX_AHEAD_DAYS = 366;
export const TASK_PAST_GRACE_MIN = 5;

/** POST /admin/crm/tasks: a call-back or task on exactly one lead or customer, at a time within the bounds above. */
export const TaskCreateRequest = z
  .object({
    leadId: id('lead').optional(),
    customerId: id('customer').optional(),
    kind: z.enum(TASK_KINDS, { error: 'Choose call-back or task' }).default('callback'),
    dueAt: z.iso.datetime({ offset: true, error: 'Choose a date and time' }),
    note: z
      .string()
      .trim()
      .max(TASK_NOTE_MAX, { error: `At most ${TASK_NOTE_MAX} characters` })
      .optional(),
  })
  .refine((b) => (b.leadId === undefined) !== (b.customerId === undefined), {
    error: 'Give either a lead or a customer',
    path: ['leadId'],
  });
export type TaskCreateRequest = z.input<typeof TaskCreateRequest>;

/** Where a task stands: open (not yet due), missed (past due, not done), done. */
export const TASK_STATES = ['open', 'missed', 'done'] as const;
export type TaskState = (typeof TASK_STATES)[number];

const person = z.object({ id: z.number(), full_name: z.string() }).nullable();

export const TaskItem = z.object({
  id: z.number(),
  kind: z.enum(TASK_KINDS),
  note: z.string().nullable(),
  due_at: z.string(),
  done_at: z.string().nullable(),
  notified_at: z.string().nullable(),
  created_at: z.string(),
  state: z.enum(TASK_STATES),
  owner: person,
  done_by: person,
  /** The lead (its name) or the customer the task is about. */
  lead: z.object({ id: z.number(), name: z.string() }).nullable(),
  customer: person,
});
export type TaskItem = z.infer<typeof TaskItem>;

/** The "My tasks" tabs: due today (open or missed today), missed, upcoming (after today), done, all. */
export const TASK_VIEWS = ['today', 'overdue', 'upcoming', 'done', 'all'] as const;
export type TaskView = (typeof TASK_VIEWS)[number];

/**
 * GET /admin/crm/tasks. `view` picks a tab; `ownerId` narrows to one staff member the caller may see; `leadId` or
 * `customerId` to one subject. `tz` is the viewer's offset in minutes (Date.getTimezoneOffset), so "today" is theirs.
 */
export const TaskListQuery = PagedQuery.pick({ page: true, limit: true }).extend({
  view: z.enum(TASK_VIEWS, { error: 'Unknown view' }).default('all'),
  ownerId: id('staff member').optional(),
  leadId: id('lead').optional(),
  customerId: id('customer').optional(),
  tz: z.coerce.number().int().min(-840).max(840).default(0),
});
export type TaskListQuery = z.infer<typeof TaskListQuery>;
export const TaskListResponse = z.object({ data: z.array(TaskItem), meta: PageMeta });
export type TaskListResponse = z.infer<typeof TaskListResponse>;

export const TaskResponse = z.object({ message: z.string(), task: TaskItem });
export type TaskResponse = z.infer<typeof TaskResponse>;

/** The earliest open task on a lead, shown on its row. */
export const NextTask = z.object({
  id: z.number(),
  kind: z.enum(TASK_KINDS),
  due_at: z.string(),
  note: z.string().nullable(),
  owner: z.string().nullable(),
});
export type NextTask = z.infer<typeof NextTask>;

/** One entry of a lead's call log. */
export const CallLogItem = z.object({
  id: z.number(),
  caller: person,
  agent: z.string(),
  provider: z.enum(['voiso', 'sandbox']),
  call_id: z.string().nullable(),
  status: z.enum(['started', 'failed']),
  reason: z.string().nullable(),
  outcome: z.string().nullable(),
  outcome_at: z.string().nullable(),
  disposition: z.string().nullable(),
  duration_s: z.number().nullable(),
  started_at: z.string(),
});
export type CallLogItem = z.infer<typeof CallLogItem>;
export const CallLogResponse = z.object({ data: z.array(CallLogItem) });
export type CallLogResponse = z.infer<typeof CallLogResponse>;

/** The answer to an outcome: the status set, and the call it was recorded on (the caller's latest on the lead). */
export const LeadStatusResponse = z.object({
  message: z.string(),
  lead_status: z.string(),
  call_id: z.number().nullable(),
});
export type LeadStatusResponse = z.infer<typeof LeadStatusResponse>;
