import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { createdAt, money } from './schema-columns.ts';
import { users } from './schema-core.ts';

/**
 * Four-eyes requests: an action above its threshold waits here (who asked, what, on whom, before/after, the amount
 * in the site currency) until a second staff member approves it (the action runs then, once) or rejects it.
 * pending → approved | rejected, one way, by a conditional update.
 */
export const approvalRequests = pgTable(
  'approval_requests',
  {
    id: serial('id').primaryKey(),
    kind: varchar('kind', { length: 30 }).notNull(),
    status: varchar('status', { length: 10 }).notNull().default('pending'),
    requestedBy: integer('requested_by')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    requestedIp: varchar('requested_ip', { length: 64 }),
    targetUserId: integer('target_user_id').references(() => users.id, { onDelete: 'restrict' }),
    /** What the action touches, e.g. `withdrawal:12`; one pending request per subject (adjustments have none). */
    subjectKey: varchar('subject_key', { length: 60 }),
    /** The action's input, replayed on approval. */
    payload: jsonb('payload').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    summary: varchar('summary', { length: 300 }).notNull(),
    amount: money('amount'),
    currency: varchar('currency', { length: 10 }),
    amountSite: money('amount_site'),
    siteCurrency: varchar('site_currency', { length: 10 }).notNull(),
    threshold: money('threshold'),
    reason: text('reason'),
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'restrict' }),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    decisionReason: text('decision_reason'),
    /** Why the last approval attempt could not run the action (the request stays pending). */
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [
    index('approval_requests_status_idx').on(t.status, t.id),
    uniqueIndex('approval_requests_pending_subject_idx')
      .on(t.subjectKey)
      .where(sql`${t.status} = 'pending' and ${t.subjectKey} is not null`),
  ],
);
