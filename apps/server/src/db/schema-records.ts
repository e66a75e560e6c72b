import { bigint, boolean, date, integer, jsonb, pgTable, serial, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './schema-columns.ts';

/**
 * The daily checkpoint of the records' hash chains (docs/decisions.md "Daily checkpoint"): the head of the audit chain
 * and of every wallet's ledger chain as the day's job read them, signed with RECORDS_SIGNING_KEY when it is set. One
 * row per UTC day, the day being the job's idempotency key: a second instance, or a retry, inserts nothing. The
 * database refuses UPDATE, DELETE and TRUNCATE, as for the chains themselves.
 */
export const recordsCheckpoints = pgTable(
  'records_checkpoints',
  {
    id: serial('id').primaryKey(),
    day: date('day', { mode: 'string' }).notNull(),
    /** When the heads were read. */
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    auditSeq: bigint('audit_seq', { mode: 'number' }).notNull(),
    wallets: integer('wallets').notNull(),
    signed: boolean('signed').notNull(),
    /** The checkpoint as GET /admin/records/checkpoint exports it ({at, audit, ledger, signature}). */
    body: jsonb('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('records_checkpoints_day_idx').on(t.day)],
);
