import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, money } from './schema-columns.ts';
import { balances, users } from './schema-core.ts';

// Partners (introducing brokers): commission plans and their dated versions, the partner tree, which partner each
// client belongs to (and its history), the commissions accrued, and each partner's commission wallets.

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A commission plan; its terms live in dated versions. Archived plans take no new partners; nothing is erased. */
export const partnerPlans = pgTable('partner_plans', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 80 }).notNull(),
  archivedAt: at('archived_at'),
  createdAt: createdAt(),
});

/**
 * A plan's terms from `effective_from` on: a deal is paid by the version in effect when it closed, so a change
 * never reprices earlier deals. Versions are only ever added.
 */
export const partnerPlanVersions = pgTable(
  'partner_plan_versions',
  {
    id: serial('id').primaryKey(),
    planId: integer('plan_id')
      .notNull()
      .references(() => partnerPlans.id, { onDelete: 'restrict' }),
    effectiveFrom: at('effective_from').notNull(),
    name: varchar('name', { length: 80 }).notNull(),
    currency: varchar('currency', { length: 10 }).notNull(),
    /** Amount per lot traded, per instrument category, in the plan's currency (decimal strings). */
    perLot: jsonb('per_lot').$type<Record<string, string>>().notNull(),
    /** Percent of the spread and of the commission the client paid on the deal. */
    spreadShare: numeric('spread_share', { precision: 9, scale: 4 }).notNull(),
    commissionShare: numeric('commission_share', { precision: 9, scale: 4 }).notNull(),
    cpa: money('cpa').notNull(),
    cpaMinDeposit: money('cpa_min_deposit').notNull(),
    /** Percent of the base each level receives, from level 1 (the client's own partner) up (decimal strings). */
    levels: jsonb('levels').$type<string[]>().notNull(),
    countDemo: boolean('count_demo').notNull().default(false),
    minHoldSeconds: integer('min_hold_seconds').notNull().default(0),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('partner_plan_versions_plan_from_unique').on(t.planId, t.effectiveFrom),
    check(
      'partner_plan_versions_shares_check',
      sql`${t.spreadShare} between 0 and 100 and ${t.commissionShare} between 0 and 100`,
    ),
    check(
      'partner_plan_versions_amounts_check',
      sql`${t.cpa} >= 0 and ${t.cpaMinDeposit} >= 0 and ${t.minHoldSeconds} >= 0`,
    ),
  ],
);

/** A partner (an affiliate, role 4) with their plan and the partner above them (null: a top partner). */
export const partnerLinks = pgTable(
  'partner_links',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'restrict' }),
    planId: integer('plan_id')
      .notNull()
      .references(() => partnerPlans.id, { onDelete: 'restrict' }),
    parentId: integer('parent_id').references(() => users.id, { onDelete: 'restrict' }),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: at('updated_at').notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    index('partner_links_parent_idx').on(t.parentId),
    index('partner_links_plan_idx').on(t.planId),
    check('partner_links_not_own_parent', sql`${t.parentId} is distinct from ${t.userId}`),
  ],
);

/**
 * A client's partner as staff set it (wins over the promo code and lead that otherwise decide; partner null: none).
 * Clients without a row belong to whoever their sign-up promo code or affiliate lead names (partners/clients.ts).
 */
export const partnerClients = pgTable(
  'partner_clients',
  {
    customerId: integer('customer_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'restrict' }),
    partnerId: integer('partner_id').references(() => users.id, { onDelete: 'restrict' }),
    reason: text('reason').notNull(),
    assignedBy: integer('assigned_by').references(() => users.id, { onDelete: 'set null' }),
    assignedAt: at('assigned_at').notNull().defaultNow(),
  },
  (t) => [index('partner_clients_partner_idx').on(t.partnerId)],
);

/** Every change of a client's partner: who, when, from whom to whom and why. */
export const partnerClientHistory = pgTable(
  'partner_client_history',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    fromPartnerId: integer('from_partner_id').references(() => users.id, { onDelete: 'restrict' }),
    toPartnerId: integer('to_partner_id').references(() => users.id, { onDelete: 'restrict' }),
    reason: text('reason').notNull(),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('partner_client_history_customer_idx').on(t.customerId, t.id)],
);

/**
 * One commission of one level on one deal (kind trade), its reversal when the deal is voided (kind reversal), or a
 * CPA on a client's first deposit (kind cpa). The unique keys are the idempotency keys: a retry, a restart or a
 * second instance accrues nothing twice. `amount` is what was credited (negative for a reversal).
 */
export const partnerCommissions = pgTable(
  'partner_commissions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: varchar('kind', { length: 10 }).notNull(),
    // No foreign keys to orders and deposits: those are never deleted, and a deal's close must not wait on them.
    dealId: integer('deal_id'),
    depositId: integer('deposit_id'),
    customerId: integer('customer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    level: integer('level').notNull(),
    partnerId: integer('partner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    planVersionId: integer('plan_version_id')
      .notNull()
      .references(() => partnerPlanVersions.id, { onDelete: 'restrict' }),
    balanceId: integer('balance_id')
      .notNull()
      .references(() => balances.id, { onDelete: 'restrict' }),
    instrument: varchar('instrument', { length: 40 }),
    lots: money('lots').notNull().default('0'),
    /** The level's base in the plan's currency before its percent (per-lot part + spread and commission shares). */
    base: money('base').notNull(),
    amount: money('amount').notNull(),
    currency: varchar('currency', { length: 10 }).notNull(),
    /** When the deal closed (or the deposit was approved): what reports and statements filter by. */
    accruedAt: at('accrued_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('partner_commissions_deal_unique').on(t.dealId, t.level, t.kind).where(sql`${t.dealId} is not null`),
    uniqueIndex('partner_commissions_cpa_unique').on(t.customerId, t.level).where(sql`${t.kind} = 'cpa'`),
    index('partner_commissions_partner_idx').on(t.partnerId, t.accruedAt),
    // The dashboard's active traders over a past period: is there a deal of this client in it (reports.ts).
    index('partner_commissions_trader_idx')
      .on(t.partnerId, t.customerId, t.accruedAt)
      .where(sql`${t.level} = 1 and ${t.kind} = 'trade' and ${t.dealId} is not null`),
    check('partner_commissions_kind_check', sql`${t.kind} in ('trade', 'cpa', 'reversal')`),
    check('partner_commissions_source_check', sql`(${t.dealId} is null) <> (${t.depositId} is null)`),
    check('partner_commissions_level_check', sql`${t.level} between 1 and 10`),
  ],
);

/**
 * The commission rows summed per partner, UTC day of `accrued_at` and currency: what the dashboard reads for its
 * chart and totals instead of every row. Kept by the database (migration 0038): a statement trigger on
 * partner_commissions adds each insert's rows here in the same transaction, whatever code inserts them, and commission
 * rows are never changed nor deleted, so this always equals the detail grouped so. Only that trigger writes here: any
 * other insert or update is skipped. Unconstrained NUMERIC: a sum keeps the scale of what it added, exactly as the detail's own sum would
 * print it.
 */
export const partnerCommissionDays = pgTable(
  'partner_commission_days',
  {
    partnerId: integer('partner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    day: date('day', { mode: 'string' }).notNull(),
    currency: varchar('currency', { length: 10 }).notNull(),
    /** Σ amount of the day's rows (trade, CPA and reversal: what the partner was credited, less what was taken back). */
    amount: numeric('amount').notNull(),
    /** Σ lots of their own clients' deals that paid them (level 1), less those voided: the dashboard's volume. */
    lots: numeric('lots').notNull(),
    /** How many commission rows the day holds. */
    entries: integer('entries').notNull(),
  },
  (t) => [primaryKey({ name: 'partner_commission_days_pk', columns: [t.partnerId, t.day, t.currency] })],
);

/**
 * Each client whose deals paid a partner as level 1 (their own client), with the accrual time of the first and the
 * last such deal (voided ones too: a void takes the money back, the client still traded). The dashboard counts active
 * traders from these rows (reports.ts). Kept, like the roll-up above, by the statement trigger on partner_commissions
 * (migration 0038), the only writer.
 */
export const partnerTraders = pgTable(
  'partner_traders',
  {
    partnerId: integer('partner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    customerId: integer('customer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    firstAt: at('first_at').notNull(),
    lastAt: at('last_at').notNull(),
  },
  (t) => [primaryKey({ name: 'partner_traders_pk', columns: [t.partnerId, t.customerId] })],
);

/** A partner's commission wallet per currency: a real wallet of theirs, opened at their first commission in it. */
export const partnerWallets = pgTable(
  'partner_wallets',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    currency: varchar('currency', { length: 10 }).notNull(),
    balanceId: integer('balance_id')
      .notNull()
      .references(() => balances.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: 'partner_wallets_pk', columns: [t.userId, t.currency] })],
);

/** How far the catch-up sweep has looked at closed deals (one row): deals closed after it are checked again. */
export const partnerSweep = pgTable('partner_sweep', {
  id: integer('id').primaryKey().default(1),
  closedUpTo: at('closed_up_to').notNull(),
});
