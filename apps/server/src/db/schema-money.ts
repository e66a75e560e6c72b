import { sql } from 'drizzle-orm';
import {
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
} from 'drizzle-orm/pg-core';
import { createdAt, money } from './schema-columns.ts';
import { balances, users } from './schema-core.ts';

/** One record per gateway kind (back-office §3 field sets); secrets never leave the server in full. */
export const paymentGateways = pgTable('payment_gateways', {
  kind: varchar('kind', { length: 20 }).primaryKey(),
  key1: text('key1'),
  key2: text('key2'),
  key3: text('key3'),
  key4: text('key4'),
  key5: text('key5'),
  fee: numeric('fee', { precision: 9, scale: 4 }).notNull().default('0'),
  isActive: boolean('is_active').notNull().default(false),
  fileId: varchar('file_id', { length: 40 }),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Extra deposit options that only open a broker's link. */
export const externalPayments = pgTable('external_payments', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 120 }).notNull(),
  link: varchar('link', { length: 500 }).notNull(),
  customLabel: varchar('custom_label', { length: 120 }),
  customValue: varchar('custom_value', { length: 255 }),
  logoFileId: varchar('logo_file_id', { length: 40 }),
  createdAt: createdAt(),
});

/** Deposits: pending until staff or a verified provider confirmation approve or decline them, once. */
export const deposits = pgTable(
  'deposits',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    balanceId: integer('balance_id')
      .notNull()
      .references(() => balances.id, { onDelete: 'restrict' }),
    gateway: varchar('gateway', { length: 20 }).notNull(),
    amount: money('amount').notNull(),
    fee: money('fee').notNull(),
    total: money('total').notNull(),
    currency: varchar('currency', { length: 10 }).notNull(),
    status: varchar('status', { length: 10 }).notNull().default('pending'),
    /** Our payment reference (tx_ref), sent to providers and echoed back by them. */
    reference: varchar('reference', { length: 64 }).notNull(),
    providerRef: varchar('provider_ref', { length: 128 }),
    /** Bank transfer: the account the client says it sent from, and the proof. */
    bankName: varchar('bank_name', { length: 120 }),
    accountName: varchar('account_name', { length: 120 }),
    accountNumber: varchar('account_number', { length: 64 }),
    proofFileId: varchar('proof_file_id', { length: 40 }),
    /** Crypto: the coin, the address paid to, the server's rate and the total converted to the coin. */
    coin: varchar('coin', { length: 10 }),
    walletAddress: varchar('wallet_address', { length: 255 }),
    coinRate: money('coin_rate'),
    coinAmount: money('coin_amount'),
    balanceAfter: money('balance_after'),
    declineReason: text('decline_reason'),
    reviewedBy: integer('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('deposits_reference_unique').on(t.reference),
    index('deposits_user_idx').on(t.userId, t.id),
    index('deposits_status_idx').on(t.status, t.id),
    index('deposits_status_created_idx').on(t.status, t.createdAt),
    check('deposits_status_check', sql`${t.status} in ('pending', 'approved', 'declined')`),
    check('deposits_amount_positive', sql`${t.amount} > 0 and ${t.fee} >= 0 and ${t.total} = ${t.amount} + ${t.fee}`),
  ],
);

/** Withdrawal requests: the total leaves the wallet's balance when requested (a hold), and is paid out or released. */
export const withdrawals = pgTable(
  'withdrawals',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    balanceId: integer('balance_id')
      .notNull()
      .references(() => balances.id, { onDelete: 'restrict' }),
    gateway: varchar('gateway', { length: 20 }).notNull().default('bank'),
    amount: money('amount').notNull(),
    fee: money('fee').notNull(),
    total: money('total').notNull(),
    currency: varchar('currency', { length: 10 }).notNull(),
    status: varchar('status', { length: 10 }).notNull().default('pending'),
    bankName: varchar('bank_name', { length: 120 }).notNull(),
    accountName: varchar('account_name', { length: 120 }).notNull(),
    accountNumber: varchar('account_number', { length: 64 }).notNull(),
    swiftCode: varchar('swift_code', { length: 20 }).notNull(),
    bankCountry: varchar('bank_country', { length: 100 }).notNull(),
    /** The wallet balance right after the hold. */
    balanceAfter: money('balance_after').notNull(),
    declineReason: text('decline_reason'),
    reviewedBy: integer('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('withdrawals_user_idx').on(t.userId, t.id),
    index('withdrawals_status_idx').on(t.status, t.id),
    index('withdrawals_status_created_idx').on(t.status, t.createdAt),
    check('withdrawals_status_check', sql`${t.status} in ('pending', 'approved', 'declined')`),
    check(
      'withdrawals_amount_positive',
      sql`${t.amount} > 0 and ${t.fee} >= 0 and ${t.total} = ${t.amount} + ${t.fee}`,
    ),
  ],
);

/**
 * Every provider callback as it arrived, stored before it is processed. The provider's event id is unique per
 * kind once verified, so a replayed callback is recognised and credits nothing.
 */
export const paymentCallbacks = pgTable(
  'payment_callbacks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: varchar('kind', { length: 20 }).notNull(),
    eventId: varchar('event_id', { length: 200 }),
    /** 'callback': a provider's webhook or IPN as it arrived; 'capture': a server-side capture we asked for (PayPal). */
    source: varchar('source', { length: 10 }).notNull().default('callback'),
    headers: jsonb('headers').notNull(),
    body: text('body').notNull(),
    query: jsonb('query').notNull().default({}),
    /** What the provider confirmed, saved once verified, so a retry applies it without asking (or re-signing) again. */
    confirmation: jsonb('confirmation'),
    outcome: varchar('outcome', { length: 20 }).notNull().default('received'),
    error: text('error'),
    depositId: integer('deposit_id'),
    receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('payment_callbacks_event_unique').on(t.kind, t.eventId)],
);
