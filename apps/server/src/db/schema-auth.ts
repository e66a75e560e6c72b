import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';

import { createdAt } from './schema-columns.ts';
import { users } from './schema-core.ts';

// Sign-in and its records: address allow-lists, sessions, sign-in attempts, mailed tokens and staff two-factor.

export const ipWhitelists = pgTable(
  'ip_whitelists',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ipAddress: varchar('ip_address', { length: 64 }).notNull(),
  },
  (t) => [index('ip_whitelists_user_idx').on(t.userId)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: varchar('token_hash', { length: 64 }).notNull(),
    /** Staff member acting as this user ("Login as"); back-to-admin returns to their session. */
    impersonatorId: integer('impersonator_id').references(() => users.id, { onDelete: 'cascade' }),
    remember: boolean('remember').notNull().default(false),
    ip: varchar('ip', { length: 64 }),
    userAgent: varchar('user_agent', { length: 255 }),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** When the user last gave their password (or code) again in this session; null: only at sign-in. */
    confirmedAt: timestamp('confirmed_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('sessions_token_unique').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

/**
 * Every sign-in attempt on a known account, kept as a security record (never deleted by the product): the Security
 * page's sign-in history and staff's view of a customer's. Unknown addresses are not recorded (nothing to show them to).
 */
export const signIns = pgTable(
  'sign_ins',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    /** success | wrong_password | wrong_code | refused (inactive, unverified, address not allowed) | locked */
    result: varchar('result', { length: 20 }).notNull(),
    ip: varchar('ip', { length: 64 }),
    userAgent: varchar('user_agent', { length: 255 }),
    createdAt: createdAt(),
  },
  (t) => [
    index('sign_ins_user_idx').on(t.userId, t.id),
    check(
      'sign_ins_result_check',
      sql`${t.result} in ('success', 'wrong_password', 'wrong_code', 'refused', 'locked')`,
    ),
  ],
);

/** Single-use tokens sent by mail (email verification, password reset), stored hashed. */
export const authTokens = pgTable(
  'auth_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 20 }).notNull(),
    tokenHash: varchar('token_hash', { length: 64 }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('auth_tokens_hash_unique').on(t.tokenHash)],
);

/**
 * Staff two-factor sign-in (TOTP). A row with no enabled_at is a set-up in progress. last_step is the time step of
 * the last accepted code, so a code is accepted once. Recovery codes are kept only as SHA-256 hashes.
 */
export const staffTwoFactor = pgTable('staff_two_factor', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: varchar('secret', { length: 64 }).notNull(),
  enabledAt: timestamp('enabled_at', { withTimezone: true, mode: 'date' }),
  lastStep: bigint('last_step', { mode: 'number' }),
  recoveryCodes: jsonb('recovery_codes').$type<Array<{ hash: string; usedAt: string | null }>>().notNull().default([]),
  createdAt: createdAt(),
});
