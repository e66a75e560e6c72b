import { index, integer, pgTable, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';

import { createdAt } from './schema-columns.ts';
import { users } from './schema-core.ts';

// Site settings, languages and their translations, and what the platform tells people: notifications and mail.

export const settings = pgTable('settings', {
  key: varchar('key', { length: 60 }).primaryKey(),
  value1: text('value1'),
  value2: text('value2'),
  value3: text('value3'),
  value4: text('value4'),
  value5: text('value5'),
  file: text('file'),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export const languages = pgTable('languages', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 60 }).notNull(),
  code: varchar('code', { length: 10 }).notNull().unique(),
  position: integer('position').notNull().default(0),
});

export const translations = pgTable(
  'translations',
  {
    id: serial('id').primaryKey(),
    code: varchar('code', { length: 10 }).notNull(),
    key: text('key').notNull(),
    value: text('value').notNull(),
  },
  (t) => [uniqueIndex('translations_code_key_unique').on(t.code, t.key)],
);

/** Keys the web app asked for and did not find, so translators can fill them. */
export const missingTranslations = pgTable(
  'missing_translations',
  {
    id: serial('id').primaryKey(),
    code: varchar('code', { length: 10 }).notNull(),
    key: text('key').notNull(),
    hits: integer('hits').notNull().default(1),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('missing_translations_code_key_unique').on(t.code, t.key)],
);

export const notifications = pgTable(
  'notifications',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: varchar('title', { length: 200 }).notNull(),
    description: text('description'),
    url: text('url'),
    readAt: timestamp('read_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [index('notifications_user_idx').on(t.userId)],
);

/** Every mail the platform sends; without SMTP this is the outbox admins read. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: serial('id').primaryKey(),
    to: varchar('to', { length: 255 }).notNull(),
    subject: varchar('subject', { length: 255 }).notNull(),
    text: text('text').notNull(),
    html: text('html'),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    error: text('error'),
    /** The link of a verification or reset mail, kept only when no SMTP server delivers mail; `text` never holds it. */
    secret: text('secret'),
    /** The auth_tokens row behind that link, to tell whether it still works. No foreign key: the mail outlives the token. */
    tokenId: integer('token_id'),
    /** The background job that sent it: a retry of that job sends nothing more once the mail went out (or may have). */
    jobId: varchar('job_id', { length: 64 }),
    /** Which run of that job holds the mail: a later run takes it over until the mail is being handed to SMTP. */
    attempt: varchar('attempt', { length: 36 }),
    /** When SMTP took DATA and the text began to flow: from then on the mail may have gone out. */
    handedAt: timestamp('handed_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('mail_outbox_job_idx').on(t.jobId)],
);
