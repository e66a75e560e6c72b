import { sql } from 'drizzle-orm';
import {
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
import { balances, instruments, orders, users } from './schema-core.ts';

// Trading beside the core's instruments and orders: favourites, candles, pending orders (limit, stop, stop-limit)
// and price alerts, the rollover's swap charges and stop-out reports.

export const favorites = pgTable(
  'favorites',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    instrumentId: integer('instrument_id')
      .notNull()
      .references(() => instruments.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('favorites_user_instrument_unique').on(t.userId, t.instrumentId)],
);

/** OHLC bars per instrument and interval ('1m', '1h', '1d'); time is the bar start. */
export const candles = pgTable(
  'candles',
  {
    instrumentId: integer('instrument_id')
      .notNull()
      .references(() => instruments.id, { onDelete: 'cascade' }),
    interval: varchar('interval', { length: 4 }).notNull(),
    time: timestamp('time', { withTimezone: true, mode: 'date' }).notNull(),
    open: numeric('open', { precision: 20, scale: 8 }).notNull(),
    high: numeric('high', { precision: 20, scale: 8 }).notNull(),
    low: numeric('low', { precision: 20, scale: 8 }).notNull(),
    close: numeric('close', { precision: 20, scale: 8 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.instrumentId, t.interval, t.time] })],
);

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A pending order waits for its price on the server. Its state changes once, one way: pending → filled | cancelled |
 * expired, each with the time and a reason; the row is never deleted (a broker keeps its order records).
 */
export const pendingOrders = pgTable(
  'pending_orders',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    balanceId: integer('balance_id')
      .notNull()
      .references(() => balances.id, { onDelete: 'restrict' }),
    instrumentId: integer('instrument_id')
      .notNull()
      .references(() => instruments.id, { onDelete: 'restrict' }),
    instrument: varchar('instrument', { length: 40 }).notNull(),
    /** buy or sell. */
    side: varchar('side', { length: 4 }).notNull(),
    /** limit, stop or stop_limit. */
    orderType: varchar('order_type', { length: 10 }).notNull(),
    amount: money('amount').notNull(),
    /** The limit price (limit) or the stop price (stop, stop_limit). */
    price: money('price').notNull(),
    /** A stop-limit's limit price, placed as a limit order when the stop price is crossed. */
    limitPrice: money('limit_price'),
    takeProfit: money('take_profit'),
    stopLoss: money('stop_loss'),
    /** gtc, day (the instrument's trading day) or date. */
    expiry: varchar('expiry', { length: 4 }).notNull().default('gtc'),
    expiresAt: at('expires_at'),
    status: varchar('status', { length: 10 }).notNull().default('pending'),
    reason: text('reason'),
    /** When a stop-limit's stop price was crossed and its limit order started waiting. */
    activatedAt: at('activated_at'),
    /** One-cancels-the-other: the linked order of the same wallet. */
    ocoId: integer('oco_id'),
    /** The position the fill opened. */
    orderId: integer('order_id').references(() => orders.id, { onDelete: 'restrict' }),
    fillPrice: money('fill_price'),
    /** Who cancelled it: the client, staff, or null for the server (expiry, margin, OCO). */
    closedBy: integer('closed_by').references(() => users.id, { onDelete: 'restrict' }),
    closedAt: at('closed_at'),
    updatedAt: at('updated_at').notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    index('pending_orders_balance_idx').on(t.balanceId, t.status),
    // The waiting orders by id: the pending book's load reads them all, a fill finds its orders among them by id.
    // (Keyed by instrument it led the fill's generic plan to read every waiting order of the instrument per batch.)
    index('pending_orders_waiting_idx').on(t.id).where(sql`${t.status} = 'pending'`),
    index('pending_orders_expiry_idx')
      .on(t.expiresAt)
      .where(sql`${t.status} = 'pending' and ${t.expiresAt} is not null`),
    check('pending_orders_side_check', sql`${t.side} in ('buy', 'sell')`),
    check('pending_orders_type_check', sql`${t.orderType} in ('limit', 'stop', 'stop_limit')`),
    check('pending_orders_status_check', sql`${t.status} in ('pending', 'filled', 'cancelled', 'expired')`),
    check('pending_orders_expiry_check', sql`${t.expiry} in ('gtc', 'day', 'date')`),
    check('pending_orders_amount_positive', sql`${t.amount} > 0 and ${t.price} > 0`),
    check(
      'pending_orders_closed_check',
      sql`(${t.status} = 'pending') = (${t.closedAt} is null) and (${t.status} = 'filled') = (${t.orderId} is not null)`,
    ),
  ],
);

/** "Bid/ask crosses X" on an instrument: fired once by the server, then kept as fired. */
export const priceAlerts = pgTable(
  'price_alerts',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    instrumentId: integer('instrument_id')
      .notNull()
      .references(() => instruments.id, { onDelete: 'cascade' }),
    instrument: varchar('instrument', { length: 40 }).notNull(),
    /** bid or ask. */
    side: varchar('side', { length: 3 }).notNull(),
    /** above or below. */
    condition: varchar('condition', { length: 5 }).notNull(),
    price: money('price').notNull(),
    email: boolean('email').notNull().default(false),
    firedAt: at('fired_at'),
    firedPrice: money('fired_price'),
    updatedAt: at('updated_at').notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    index('price_alerts_user_idx').on(t.userId),
    index('price_alerts_active_idx').on(t.instrumentId).where(sql`${t.firedAt} is null`),
    check('price_alerts_side_check', sql`${t.side} in ('bid', 'ask')`),
    check('price_alerts_condition_check', sql`${t.condition} in ('above', 'below')`),
    check('price_alerts_price_positive', sql`${t.price} > 0`),
  ],
);

/**
 * One swap (or swap-free administration fee) booked on a position at the rollover of a trading date. The primary key
 * is the rollover's idempotency key: a re-run, a second instance or a restart mid-run charges a position once a date.
 */
export const swapCharges = pgTable(
  'swap_charges',
  {
    // No foreign key: rows are written only by the rollover's statement from the orders it has just read, and orders
    // are never deleted; the key's check cost an eighth of the rollover (migration 0022).
    orderId: integer('order_id').notNull(),
    /** The trading date whose rollover charged it (the rollover time's local date). */
    tradingDate: date('trading_date', { mode: 'string' }).notNull(),
    /** swap, or fee (a swap-free plan's daily administration fee). */
    kind: varchar('kind', { length: 4 }).notNull().default('swap'),
    /** Days of financing it covers: 1, or 3 on the category's triple-swap day. */
    days: integer('days').notNull(),
    /** Added to the wallet (negative: charged), in the wallet's currency. */
    amount: money('amount').notNull(),
    currency: varchar('currency', { length: 10 }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'swap_charges_order_date_pk', columns: [t.orderId, t.tradingDate] }),
    check('swap_charges_kind_check', sql`${t.kind} in ('swap', 'fee')`),
    check('swap_charges_days_check', sql`${t.days} between 1 and 7`),
  ],
);

/**
 * A rollover of one trading date: the instant that decides which positions it charges (open at `cutoff`) and how far
 * it got (wallets up to last_balance_id, the lanes' own progress in rollover_lanes meanwhile, then positions closed
 * after the cutoff up to last_order_id), so a restart goes on where it stopped. Batches lock their lane's row, then
 * this one for the closed positions, so two instances running it take turns.
 */
export const rolloverRuns = pgTable('rollover_runs', {
  tradingDate: date('trading_date', { mode: 'string' }).primaryKey(),
  cutoff: at('cutoff').notNull(),
  lastBalanceId: integer('last_balance_id').notNull().default(0),
  lastOrderId: integer('last_order_id').notNull().default(0),
  /** Positions charged or credited (swap_charges rows written) by this run. */
  charged: integer('charged').notNull().default(0),
  /** The admin who ran it by hand; null for the schedule. */
  startedBy: integer('started_by').references(() => users.id, { onDelete: 'restrict' }),
  startedAt: at('started_at').notNull().defaultNow(),
  finishedAt: at('finished_at'),
});

/**
 * A lane of a run's open positions: a slice of the wallets (after last_balance_id, up to end_balance_id) walked by
 * batches of its own beside the other lanes, on a connection of its own. Its batches lock this row (the lane's
 * progress); once every lane reached its end they are folded into the run (their counts added to its `charged`) and
 * deleted, and the run goes on with the positions closed since the cutoff.
 */
export const rolloverLanes = pgTable(
  'rollover_lanes',
  {
    tradingDate: date('trading_date', { mode: 'string' }).notNull(),
    lane: integer('lane').notNull(),
    /** Every wallet up to this id is done. */
    lastBalanceId: integer('last_balance_id').notNull(),
    /** The lane's last wallet id. */
    endBalanceId: integer('end_balance_id').notNull(),
    /** Positions charged or credited by the lane's batches. */
    charged: integer('charged').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tradingDate, t.lane], name: 'rollover_lanes_pk' })],
);

/** A position closed by a stop-out, as its report lists it (decimal strings). */
export interface StopoutPosition {
  id: number;
  instrument: string;
  side: 'buy' | 'sell';
  amount: string;
  price: string;
  pl: string;
}

/** What a stop-out decided and did, kept for the client and staff: the figures at the decision and each close. */
export const stopoutReports = pgTable(
  'stopout_reports',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    balanceId: integer('balance_id')
      .notNull()
      .references(() => balances.id, { onDelete: 'restrict' }),
    /** Margin level (percent), equity and balance when the stop-out was decided. */
    marginLevel: money('margin_level').notNull(),
    equity: money('equity').notNull(),
    balance: money('balance').notNull(),
    positions: jsonb('positions').$type<StopoutPosition[]>().notNull().default([]),
    /** Negative balance protection credited by the closes (0 when none was needed). */
    protectionCredit: money('protection_credit').notNull().default('0'),
    createdAt: createdAt(),
  },
  (t) => [
    index('stopout_reports_user_idx').on(t.userId, t.id),
    index('stopout_reports_balance_idx').on(t.balanceId, t.id),
    check('stopout_reports_protection_check', sql`${t.protectionCredit} >= 0`),
  ],
);

/**
 * The dealer's limits per instrument or per category (every instrument of it without a limit of its own): the most
 * the clients may be net long or short, the most one order may open, and when staff are warned. Held in memory on
 * every instance and checked on the order path (modules/risk/limits.ts).
 */
export const riskLimits = pgTable(
  'risk_limits',
  {
    id: serial('id').primaryKey(),
    /** 'instrument' or 'category'; `target` is the instrument's name or the category. */
    scope: varchar('scope', { length: 10 }).notNull(),
    target: varchar('target', { length: 40 }).notNull(),
    maxNetVolume: money('max_net_volume'),
    maxPositionVolume: money('max_position_volume'),
    warnPercent: integer('warn_percent').notNull().default(80),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('risk_limits_target_unique').on(t.scope, t.target),
    check('risk_limits_scope_check', sql`${t.scope} in ('instrument', 'category')`),
    check('risk_limits_warn_check', sql`${t.warnPercent} between 1 and 100`),
    check(
      'risk_limits_positive_check',
      sql`coalesce(${t.maxNetVolume}, 1) > 0 and coalesce(${t.maxPositionVolume}, 1) > 0`,
    ),
  ],
);
