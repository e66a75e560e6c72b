import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  varchar,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';

import { bytea, createdAt, money } from './schema-columns.ts';

// The platform's core tables: plans, users and profiles, wallets and the ledger, KYC, audit, instruments, orders,
// files and promo codes. Sign-in, the site's content, money movements, the CRM and the rest have files of their own,
// each importing only this one; schema.ts gathers them.

export const pricingPlans = pgTable(
  'pricing_plans',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 120 }).notNull(),
    description: text('description'),
    price: money('price').notNull().default('0'),
    forexLeverage: integer('forex_leverage'),
    commodityLeverage: integer('commodity_leverage'),
    indexLeverage: integer('index_leverage'),
    stockLeverage: integer('stock_leverage'),
    cryptoLeverage: integer('crypto_leverage'),
    forexStopout: integer('forex_stopout'),
    commodityStopout: integer('commodity_stopout'),
    indexStopout: integer('index_stopout'),
    stockStopout: integer('stock_stopout'),
    cryptoStopout: integer('crypto_stopout'),
    /** Hedging (several positions per instrument, each closed on its own) or netting (one position per instrument). */
    accountType: varchar('account_type', { length: 8 }).notNull().default('hedging'),
    /** Commission by category, per lot or per million of notional (commission_basis); 0 charges none. */
    forexCommission: money('forex_commission').notNull().default('0'),
    commodityCommission: money('commodity_commission').notNull().default('0'),
    indexCommission: money('index_commission').notNull().default('0'),
    stockCommission: money('stock_commission').notNull().default('0'),
    cryptoCommission: money('crypto_commission').notNull().default('0'),
    commissionBasis: varchar('commission_basis', { length: 7 }).notNull().default('lot'),
    /** When commission is charged: at the open, at the close, or at both. */
    commissionCharge: varchar('commission_charge', { length: 5 }).notNull().default('both'),
    /** Margin level (percent) at which a wallet is in margin call; null: no margin call. */
    marginCallLevel: integer('margin_call_level'),
    /** Percentage points above the margin-call level the margin level must recover to before it can fire again. */
    marginCallRearm: integer('margin_call_rearm').notNull().default(10),
    /** Swap-free (Islamic): no swap; after swap_free_days days a position pays swap_free_fee a day instead. */
    swapFree: boolean('swap_free').notNull().default(false),
    swapFreeFee: money('swap_free_fee').notNull().default('0'),
    swapFreeDays: integer('swap_free_days').notNull().default(0),
    /** Retail protections (ESMA-style): leverage capped per instrument class, close-out at 50 % or above. */
    retail: boolean('retail').notNull().default(false),
    /** A retail plan's leverage caps by instrument class (RetailCaps); null: the shipped defaults. */
    retailCaps: jsonb('retail_caps'),
    /** Bumped by every edit: an order priced with a plan's terms is written only if the plan is still that one. */
    revision: integer('revision').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    check('pricing_plans_account_type_check', sql`${t.accountType} in ('hedging', 'netting')`),
    check(
      'pricing_plans_commission_check',
      sql`${t.forexCommission} >= 0 and ${t.commodityCommission} >= 0 and ${t.indexCommission} >= 0 and ${t.stockCommission} >= 0 and ${t.cryptoCommission} >= 0 and ${t.commissionBasis} in ('lot', 'million') and ${t.commissionCharge} in ('open', 'close', 'both')`,
    ),
    check(
      'pricing_plans_margin_call_check',
      sql`(${t.marginCallLevel} is null or ${t.marginCallLevel} between 1 and 1000) and ${t.marginCallRearm} between 0 and 1000`,
    ),
    check('pricing_plans_swap_free_check', sql`${t.swapFreeFee} >= 0 and ${t.swapFreeDays} between 0 and 3650`),
  ],
);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    fullName: varchar('full_name', { length: 120 }).notNull(),
    email: varchar('email', { length: 255 }).notNull(),
    passwordHash: text('password_hash').notNull(),
    roleId: integer('role_id').notNull(),
    isEmailVerified: boolean('is_email_verified').notNull().default(false),
    isActive: boolean('is_active').notNull().default(true),
    pricingTableId: integer('pricing_table_id').references(() => pricingPlans.id, { onDelete: 'set null' }),
    activeBalanceId: integer('active_balance_id'),
    /** The promo code typed at sign-up, as typed (kept even when it matched no current code). */
    promoCode: varchar('promo_code', { length: 64 }),
    /** The staff member's current promo code it matched at sign-up, if any. */
    promoCodeId: integer('promo_code_id').references((): AnyPgColumn => promoCodes.id, { onDelete: 'set null' }),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    // Customer 360 of the back-office lists (docs/decisions.md "Customer 360"), each kept where it changes.
    /** The first approved deposit: set once, in the approval's transaction (deposits/first-deposit.ts). */
    ftdAt: timestamp('ftd_at', { withTimezone: true, mode: 'date' }),
    ftdAmount: money('ftd_amount'),
    ftdCurrency: varchar('ftd_currency', { length: 10 }),
    /** KYC as the lists show it (KYC_LIST_STATUSES), kept by every submission and review (kyc/list-status.ts). */
    kycStatus: varchar('kyc_status', { length: 10 }).notNull().default('none'),
    /** The user's own last sign-in ("Login as" sessions are not theirs). */
    lastLoginAt: timestamp('last_login_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(sql`lower(${t.email})`),
    check('users_role_check', sql`${t.roleId} between 1 and 6`),
    check('users_kyc_status_check', sql`${t.kycStatus} in ('approved', 'declined', 'none', 'pending')`),
    index('users_role_idx').on(t.roleId),
    index('users_role_created_idx').on(t.roleId, t.createdAt),
    // The customers list sorted or filtered by these figures; rows without one are listed apart (by id).
    index('users_customers_ftd_at_idx')
      .on(t.ftdAt, t.id)
      .where(sql`${t.roleId} = 3 and ${t.deletedAt} is null and ${t.ftdAt} is not null`),
    index('users_customers_ftd_amount_idx')
      .on(t.ftdAmount, t.id)
      .where(sql`${t.roleId} = 3 and ${t.deletedAt} is null and ${t.ftdAmount} is not null`),
    index('users_customers_kyc_idx').on(t.kycStatus, t.id).where(sql`${t.roleId} = 3 and ${t.deletedAt} is null`),
    index('users_customers_login_idx')
      .on(t.lastLoginAt, t.id)
      .where(sql`${t.roleId} = 3 and ${t.deletedAt} is null and ${t.lastLoginAt} is not null`),
    // The customers without a first deposit and the inactive ones, newest first and counted from the index alone.
    index('users_customers_no_ftd_idx')
      .on(t.id)
      .where(sql`${t.roleId} = 3 and ${t.deletedAt} is null and ${t.ftdAt} is null`),
    index('users_customers_inactive_idx')
      .on(t.id)
      .where(sql`${t.roleId} = 3 and ${t.deletedAt} is null and not ${t.isActive}`),
  ],
);

export const userProfiles = pgTable(
  'user_profiles',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    phone: varchar('phone', { length: 32 }),
    birthDate: varchar('birth_date', { length: 10 }),
    country: varchar('country', { length: 100 }),
    city: varchar('city', { length: 100 }),
    address: varchar('address', { length: 255 }),
    postalCode: varchar('postal_code', { length: 20 }),
    managerId: integer('manager_id').references(() => users.id, { onDelete: 'set null' }),
  },
  // A manager's customers (their lists and their customers' trades start here).
  (t) => [index('user_profiles_manager_idx').on(t.managerId, t.userId)],
);

export const balances = pgTable(
  'balances',
  {
    id: serial('id').primaryKey(),
    // Restrict: wallets, their ledger, orders and KYC are records a broker keeps; users are only ever soft-deleted.
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    mode: varchar('mode', { length: 4 }).notNull(),
    currency: varchar('currency', { length: 10 }).notNull(),
    balance: money('balance').notNull().default('0'),
    margin: money('margin').notNull().default('0'),
    /** When the wallet's margin call fired; null while it is armed (never fired, or recovered since). */
    marginCallAt: timestamp('margin_call_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    /**
     * The customer's main real wallet, the first real one opened (set by the balances_main_wallet trigger): the wallet
     * the back-office lists show and sort by.
     */
    main: boolean('main').notNull().default(false),
    /**
     * Floating P/L of the open positions as the risk engine's leader last wrote it (every few seconds, only wallets
     * that moved; engine/equity-snapshots.ts): balance + floating_pl is the equity the lists sort and filter by.
     */
    floatingPl: money('floating_pl').notNull().default('0'),
    /**
     * Whether the owner is a customer not deleted (role 3, no `deleted_at`), kept by triggers on both tables (migration
     * 0041_customer_list_counts): the customers list counts the customers a balance or equity filter matches from their
     * main wallets alone, without visiting each customer's row.
     */
    liveCustomer: boolean('live_customer').notNull().default(false),
  },
  (t) => [
    index('balances_user_idx').on(t.userId),
    check('balances_mode_check', sql`${t.mode} in ('demo', 'real')`),
    check('balances_non_negative', sql`${t.balance} >= 0 and ${t.margin} >= 0`),
    check('balances_main_real_check', sql`not ${t.main} or ${t.mode} = 'real'`),
    uniqueIndex('balances_main_user_unique').on(t.userId).where(sql`${t.main}`),
    index('balances_main_balance_idx').on(t.balance, t.id).where(sql`${t.main}`),
    index('balances_main_equity_idx').on(sql`(${t.balance} + ${t.floatingPl})`, t.id).where(sql`${t.main}`),
    // The customers list's count by a balance or equity filter: live customers' main wallets only, read from the index
    // alone (the equity's columns are included so the expression needs no visit to the row).
    index('balances_customers_balance_idx').on(t.balance, t.id).where(sql`${t.main} and ${t.liveCustomer}`),
    index('balances_customers_equity_idx')
      .on(sql`(${t.balance} + ${t.floatingPl})`, t.id)
      .where(sql`${t.main} and ${t.liveCustomer}`),
  ],
);

/** Every balance change: kind, signed amount, balance after, its cause and who did it. */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    balanceId: integer('balance_id')
      .notNull()
      .references(() => balances.id, { onDelete: 'restrict' }),
    kind: varchar('kind', { length: 30 }).notNull(),
    amount: money('amount').notNull(),
    balanceAfter: money('balance_after').notNull(),
    refType: varchar('ref_type', { length: 30 }),
    refId: integer('ref_id'),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    note: text('note'),
    createdAt: createdAt(),
    /**
     * The entry's place in its wallet's hash chain (1, 2, ...) and the chain's links, set by the insert trigger of
     * migration 0027: hash = sha256(prev_hash || the entry's fields), so a row changed or removed later breaks it.
     */
    chainSeq: bigint('chain_seq', { mode: 'number' }).notNull().default(0),
    prevHash: bytea('prev_hash'),
    hash: bytea('hash'),
  },
  // Per wallet in chain order: the wallet's entries (what ledger_balance_idx served) and the chain's last link.
  (t) => [uniqueIndex('ledger_chain_idx').on(t.balanceId, t.chainSeq)],
);

export const kycDocuments = pgTable(
  'kyc_documents',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    type: varchar('type', { length: 20 }).notNull(),
    status: varchar('status', { length: 20 }).notNull().default('pending'),
    front: text('front'),
    back: text('back'),
    address: text('address'),
    declineReason: text('decline_reason'),
    reviewedBy: integer('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('kyc_user_idx').on(t.userId),
    index('kyc_status_idx').on(t.status, t.id),
    // The three document types of KYC_DOCUMENT_TYPES (packages/domain): any other would break every KYC list's answer.
    check('kyc_documents_type_check', sql`${t.type} in ('national_id', 'passport', 'driver_license')`),
  ],
);

/** Staff actions: who, on whom, what, before and after. Written in the same transaction as the change. */
export const auditLogs = pgTable(
  'audit_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    // No cascade or set-null: the database refuses any change to an audit row (trigger in 0004_back_office).
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'restrict' }),
    targetUserId: integer('target_user_id').references(() => users.id, { onDelete: 'restrict' }),
    action: varchar('action', { length: 60 }).notNull(),
    /** What was touched when it is not a user: 'order', 'settings', 'language', ... and its id. */
    subjectType: varchar('subject_type', { length: 30 }),
    subjectId: integer('subject_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    ip: varchar('ip', { length: 64 }),
    createdAt: createdAt(),
    /** The row's place in the audit hash chain and its links (insert trigger of migration 0027). */
    chainSeq: bigint('chain_seq', { mode: 'number' }).notNull().default(0),
    prevHash: bytea('prev_hash'),
    hash: bytea('hash'),
  },
  (t) => [
    uniqueIndex('audit_chain_idx').on(t.chainSeq),
    index('audit_target_idx').on(t.targetUserId),
    index('audit_actor_idx').on(t.actorId, t.id),
    index('audit_action_idx').on(t.action, t.id),
    index('audit_created_idx').on(t.createdAt),
  ],
);

/** Tradable instruments; bids/asks keep the last known quote so prices survive a restart. */
export const instruments = pgTable(
  'instruments',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 40 }).notNull(),
    base: varchar('base', { length: 20 }).notNull(),
    quote: varchar('quote', { length: 20 }).notNull(),
    alias: varchar('alias', { length: 80 }),
    category: varchar('category', { length: 12 }).notNull(),
    tradingview: varchar('tradingview', { length: 40 }).notNull().default(''),
    leverage: integer('leverage').notNull().default(0),
    tradable: boolean('tradable').notNull().default(true),
    /** The spec's single swap (percent a year): what swap_long and swap_short take when a form names neither. */
    swap: numeric('swap', { precision: 10, scale: 4 }).notNull().default('0'),
    /** Percent a year of a long (buy) / short (sell) position's opening value, added to the wallet at each rollover. */
    swapLong: numeric('swap_long', { precision: 10, scale: 4 }).notNull().default('0'),
    swapShort: numeric('swap_short', { precision: 10, scale: 4 }).notNull().default('0'),
    /** Decimal places of the quote (5 for EUR_USD, 3 for USD_JPY, 2 for stocks). */
    digits: integer('digits').notNull().default(5),
    /** Units in one lot (100,000 of a currency, 100 oz of gold...); null: the category's default (LOT_UNITS). */
    contractSize: numeric('contract_size', { precision: 20, scale: 8 }),
    bids: numeric('bids', { precision: 20, scale: 8 }),
    asks: numeric('asks', { precision: 20, scale: 8 }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('instruments_name_unique').on(t.name),
    index('instruments_category_idx').on(t.category),
    check('instruments_contract_size_check', sql`${t.contractSize} is null or ${t.contractSize} > 0`),
    check('instruments_category_check', sql`${t.category} in ('forex', 'commodity', 'index', 'stock', 'crypto')`),
    check(
      'instruments_swap_check',
      sql`${t.swap} between -100 and 100 and ${t.swapLong} between -100 and 100 and ${t.swapShort} between -100 and 100`,
    ),
  ],
);

/** Positions. Open while close_time is null; margin_used is held on the wallet until close. */
export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    balanceId: integer('balance_id')
      .notNull()
      .references(() => balances.id, { onDelete: 'restrict' }),
    /** The wallet's mode and currency, which never change: copied so reports filter and group orders without a join. */
    balanceMode: varchar('balance_mode', { length: 4 }).notNull(),
    balanceCurrency: varchar('balance_currency', { length: 10 }).notNull(),
    instrumentId: integer('instrument_id')
      .notNull()
      .references(() => instruments.id, { onDelete: 'restrict' }),
    instrument: varchar('instrument', { length: 40 }).notNull(),
    baseSymbol: varchar('base_symbol', { length: 20 }).notNull(),
    quoteSymbol: varchar('quote_symbol', { length: 20 }).notNull(),
    kind: varchar('kind', { length: 12 }).notNull(),
    type: varchar('type', { length: 4 }).notNull(),
    tradeAmount: money('trade_amount').notNull(),
    openRate: money('open_rate').notNull(),
    openBid: money('open_bid').notNull(),
    openAsk: money('open_ask').notNull(),
    closeRate: money('close_rate'),
    closeTime: timestamp('close_time', { withTimezone: true, mode: 'date' }),
    takeProfit: money('take_profit'),
    stopLoss: money('stop_loss'),
    spread: money('spread').notNull(),
    exchangeRate: money('exchange_rate').notNull(),
    marginUsed: money('margin_used').notNull(),
    leverage: integer('leverage').notNull(),
    proLoss: money('pro_loss'),
    closeReason: varchar('close_reason', { length: 12 }),
    closedBy: integer('closed_by').references(() => users.id, { onDelete: 'set null' }),
    /** Set when staff delete a trade: the row stays, its money is reversed through the ledger, lists leave it out. */
    voidedAt: timestamp('voided_at', { withTimezone: true, mode: 'date' }),
    voidedBy: integer('voided_by').references(() => users.id, { onDelete: 'restrict' }),
    /** A server-side trailing stop: the stop-loss follows the price at this distance, in steps of at least `step`. */
    trailingDistance: money('trailing_distance'),
    trailingStep: money('trailing_step'),
    /** The closed part of a partial close is a deal of its own that names the position it was cut from. */
    partialOf: integer('partial_of').references((): AnyPgColumn => orders.id, { onDelete: 'restrict' }),
    /** The pending order whose fill opened this position. */
    pendingOrderId: integer('pending_order_id'),
    /** Swap charged (negative) or credited at the rollovers so far; already in the wallet's balance (swap_charges). */
    swap: money('swap').notNull().default('0'),
    /** Commission on this deal so far as added to the wallet (negative: charged), already in its balance. */
    commission: money('commission').notNull().default('0'),
    createdAt: createdAt(),
  },
  (t) => [
    index('orders_partial_of_idx').on(t.partialOf).where(sql`${t.partialOf} is not null`),
    index('orders_balance_open_idx').on(t.balanceId).where(sql`${t.closeTime} is null`),
    index('orders_balance_closed_idx').on(t.balanceId, t.closeTime),
    index('orders_open_idx').on(t.instrumentId).where(sql`${t.closeTime} is null`),
    // Lists and reports also use covering indexes drizzle cannot declare (INCLUDE): see migrations 0010_reporting_indexes
    // and 0016_orders_fewer_indexes (every index is written twice per trade, at its open and its close).
    check('orders_type_check', sql`${t.type} in ('buy', 'sell')`),
    check('orders_amount_positive', sql`${t.tradeAmount} > 0`),
    check(
      'orders_trailing_check',
      sql`(${t.trailingDistance} is null and ${t.trailingStep} is null) or (${t.trailingDistance} > 0 and ${t.trailingStep} >= 0)`,
    ),
  ],
);

/**
 * Uploaded files (deposit proofs, KYC documents, logos, QR images), kept where every instance reaches them: the bytes
 * in `data` ('db', the default), or in the S3 bucket as object files/{id} ('s3', when S3 storage is configured). The
 * id is random and is the only name a file has; what a file is decides who may read it.
 */
export const storedFiles = pgTable(
  'stored_files',
  {
    id: varchar('id', { length: 40 }).primaryKey(),
    ownerId: integer('owner_id').references(() => users.id, { onDelete: 'set null' }),
    purpose: varchar('purpose', { length: 20 }).notNull(),
    mime: varchar('mime', { length: 60 }).notNull(),
    size: integer('size').notNull(),
    location: varchar('location', { length: 10 }).notNull().default('db').$type<'db' | 's3'>(),
    data: bytea('data'),
    createdAt: createdAt(),
  },
  (t) => [
    index('stored_files_owner_idx').on(t.ownerId),
    check(
      'stored_files_location_check',
      sql`(${t.location} = 'db' and ${t.data} is not null) or (${t.location} = 's3' and ${t.data} is null)`,
    ),
  ],
);

/**
 * Staff promo codes (back-office §2 Promo Code). One current code per staff member (`replaced_at` null); a new code
 * replaces the old one, which is kept for history and links no new sign-ups. Codes are unique across all rows, so an
 * old code is never handed out again.
 */
export const promoCodes = pgTable(
  'promo_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    code: varchar('code', { length: 16 }).notNull(),
    replacedAt: timestamp('replaced_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('promo_codes_code_unique').on(t.code),
    uniqueIndex('promo_codes_user_current_unique').on(t.userId).where(sql`${t.replacedAt} is null`),
  ],
);
