import type { Statement } from '../../db/statements.ts';
import type { OrderRow } from '../../engine/hooks.ts';

/**
 * The SQL of placing and closing an order (see db/statements.ts for why it is written by hand). Each write is ONE
 * statement: PostgreSQL runs it as its own transaction, so the wallet lock is held for a single round trip and no
 * BEGIN/COMMIT round trips are spent. The data-modifying CTEs of a statement all commit or none does.
 */

/** A pricing plan's commission and margin-call terms as trader rows carry them (p = the plan). */
export const PLAN_TERM_COLUMNS =
  'p.forex_commission, p.commodity_commission, p.index_commission, p.stock_commission, p.crypto_commission, p.commission_basis, p.commission_charge, p.margin_call_level, p.margin_call_rearm, p.retail, p.retail_caps, p.revision';

/**
 * The terms of plan `p` for the category of SQL expression `category`, as one text ('' without a plan): its revision
 * (bumped by every edit: retail caps, leverage...) and commission terms, what an order was priced with, which its
 * statement checks still holds (commissionKeyOf in trader.ts).
 */
export const commissionKeySql = (category: string) =>
  `concat_ws('|', p.revision, p.commission_basis, p.commission_charge, CASE ${category} WHEN 'forex' THEN p.forex_commission WHEN 'commodity' THEN p.commodity_commission WHEN 'index' THEN p.index_commission WHEN 'stock' THEN p.stock_commission WHEN 'crypto' THEN p.crypto_commission END)`;

/**
 * The caller's active wallet (or the wallet $2 of theirs), pricing-plan terms and KYC state, read without a lock
 * (PLACE_ORDER re-checks them).
 */
export const LOAD_TRADER: Statement = {
  name: 'trading_load_trader',
  text: `
    SELECT b.id AS wallet_id, b.currency AS wallet_currency, b.mode AS wallet_mode,
           p.id AS plan_id, p.forex_leverage, p.commodity_leverage, p.index_leverage, p.stock_leverage, p.crypto_leverage, p.forex_stopout,
           p.account_type, ${PLAN_TERM_COLUMNS},
           EXISTS (SELECT 1 FROM kyc_documents k WHERE k.user_id = u.id AND k.status = 'approved') AS kyc
      FROM users u
      JOIN balances b ON b.id = COALESCE($2::int, u.active_balance_id) AND b.user_id = u.id
      LEFT JOIN pricing_plans p ON p.id = u.pricing_table_id
     WHERE u.id = $1::int`,
};

/** A user's pricing-plan terms alone (a close prices its commission with them); the wallet columns are null. */
export const LOAD_PLAN: Statement = {
  name: 'trading_load_plan',
  text: `
    SELECT NULL::int AS wallet_id, NULL AS wallet_currency, NULL AS wallet_mode,
           p.id AS plan_id, p.forex_leverage, p.commodity_leverage, p.index_leverage, p.stock_leverage, p.crypto_leverage, p.forex_stopout,
           p.account_type, ${PLAN_TERM_COLUMNS}, false AS kyc
      FROM users u LEFT JOIN pricing_plans p ON p.id = u.pricing_table_id
     WHERE u.id = $1::int`,
};

export interface TraderRow {
  wallet_id: number;
  wallet_currency: string;
  wallet_mode: string;
  plan_id: number | null;
  forex_leverage: number | null;
  commodity_leverage: number | null;
  index_leverage: number | null;
  stock_leverage: number | null;
  crypto_leverage: number | null;
  forex_stopout: number | null;
  account_type: string | null;
  forex_commission: string | null;
  commodity_commission: string | null;
  index_commission: string | null;
  stock_commission: string | null;
  crypto_commission: string | null;
  commission_basis: string | null;
  commission_charge: string | null;
  margin_call_level: number | null;
  margin_call_rearm: number | null;
  retail: boolean | null;
  retail_caps: unknown;
  revision: number | null;
  kyc: boolean;
}

const ORDER_COLUMNS =
  'user_id, balance_id, balance_mode, balance_currency, instrument_id, instrument, base_symbol, quote_symbol, kind, type, trade_amount, open_rate, open_bid, open_ask, take_profit, stop_loss, spread, exchange_rate, margin_used, leverage';

/**
 * Places an order in one statement. The server remembers each trader's wallet, plan and KYC state between orders
 * (see trading-memory.ts) and prices the order with them; the statement re-reads them with the wallet locked and
 * writes only if they still hold: the same active wallet, the same plan leverage for the category, KYC approved
 * when required, and the margin within the balance and the free margin (balance − held margin + the live P/L passed
 * in). It always returns the trader's current figures; the order columns are null when nothing was written, and the
 * figures tell why (a changed wallet or plan is simply priced again).
 * A pending order's fill ($22 its id) opens the position on the pending order's own wallet ($2, whichever wallet is
 * active now), only while the pending order is still pending and reached, and in the same statement marks it filled and cancels
 * its OCO partner; `pending_open` says whether it was still pending.
 * On a netting account nothing is written while the wallet holds a position on the instrument (`netting_conflict`):
 * the order path nets against it instead (netting.ts).
 * $1 user, $2 expected wallet, $3 margin, $4 live P/L, $5 category, $6 expected plan leverage of the category or
 * null, $7 KYC required (real wallets; demo wallets trade without it), $8.. the order's columns from instrument_id on,
 * $22 pending order or null, $23 the commission charged at open (0 when none), $24 the plan's commission terms it was
 * priced with (commissionKeyOf). The commission is paid from the balance with its ledger entry, and the balance
 * and free margin must cover it beside the margin.
 */
export const PLACE_ORDER: Statement = {
  name: 'trading_place_order',
  text: `
    WITH trader AS (
      SELECT b.id AS wallet_id, b.currency AS wallet_currency, b.mode AS wallet_mode, b.balance AS wallet_balance, b.margin AS wallet_margin,
             p.id AS plan_id, p.forex_leverage, p.commodity_leverage, p.index_leverage, p.stock_leverage, p.crypto_leverage, p.forex_stopout,
             p.account_type, ${PLAN_TERM_COLUMNS}, ${commissionKeySql('$5::text')} AS commission_key,
             (p.account_type = 'netting' AND EXISTS (
               SELECT 1 FROM orders x WHERE x.balance_id = b.id AND x.instrument_id = $8::int AND x.close_time IS NULL
             )) AS netting_conflict,
             CASE $5::text WHEN 'forex' THEN p.forex_leverage WHEN 'commodity' THEN p.commodity_leverage WHEN 'index' THEN p.index_leverage
                           WHEN 'stock' THEN p.stock_leverage WHEN 'crypto' THEN p.crypto_leverage END AS plan_leverage,
             EXISTS (SELECT 1 FROM kyc_documents k WHERE k.user_id = u.id AND k.status = 'approved') AS kyc
        FROM users u
        JOIN balances b ON b.id = CASE WHEN $22::int IS NULL THEN u.active_balance_id ELSE $2::int END AND b.user_id = u.id
        LEFT JOIN pricing_plans p ON p.id = u.pricing_table_id
       WHERE u.id = $1::int
         FOR UPDATE OF b
    ), pend AS (
      -- Still waiting, with the TP/SL it was priced with, and its current price reached by the triggering quote (a
      -- change committed after the trigger may have moved it away).
      SELECT id, oco_id FROM pending_orders
       WHERE id = $22::int AND status = 'pending' AND balance_id = $2::int AND EXISTS (SELECT 1 FROM trader)
         AND take_profit IS NOT DISTINCT FROM $17::numeric AND stop_loss IS NOT DISTINCT FROM $18::numeric
         AND CASE WHEN order_type = 'stop_limit' AND activated_at IS NULL THEN false
                  WHEN side = 'buy' AND order_type = 'stop' THEN $16::numeric >= price
                  WHEN side = 'buy' THEN $16::numeric <= COALESCE(limit_price, price)
                  WHEN order_type = 'stop' THEN $15::numeric <= price
                  ELSE $15::numeric >= COALESCE(limit_price, price) END
         FOR UPDATE
    ), placed AS (
      INSERT INTO orders (${ORDER_COLUMNS}, pending_order_id, commission)
      SELECT $1::int, trader.wallet_id, trader.wallet_mode, trader.wallet_currency, $8::int, $9::text, $10::text, $11::text, $5::text, $12::text, $13::numeric, $14::numeric,
             $15::numeric, $16::numeric, $17::numeric, $18::numeric, $19::numeric, $20::numeric, $3::numeric, $21::int, $22::int, -$23::numeric
        FROM trader
       WHERE trader.wallet_id = $2::int
         AND trader.plan_leverage IS NOT DISTINCT FROM $6::int
         AND trader.commission_key = $24::text
         AND (NOT $7::boolean OR trader.kyc OR trader.wallet_mode = 'demo')
         AND trader.wallet_balance >= $3::numeric + $23::numeric
         AND trader.wallet_balance - trader.wallet_margin + $4::numeric >= $3::numeric + $23::numeric
         AND ($22::int IS NULL OR EXISTS (SELECT 1 FROM pend))
         AND trader.netting_conflict IS NOT TRUE
      RETURNING *
    ), hold AS (
      UPDATE balances SET margin = balances.margin + placed.margin_used, balance = balances.balance + placed.commission
        FROM placed WHERE balances.id = placed.balance_id
    ), charged AS (
      INSERT INTO ledger_entries (balance_id, kind, amount, balance_after, ref_type, ref_id, note)
      SELECT placed.balance_id, 'commission', placed.commission, trader.wallet_balance + placed.commission, 'order', placed.id,
             'Commission on ' || placed.instrument
        FROM placed, trader WHERE placed.commission < 0
    ), filled AS (
      UPDATE pending_orders SET status = 'filled', order_id = placed.id, fill_price = placed.open_rate, closed_at = now(), updated_at = now(),
             reason = 'Filled at ' || placed.open_rate::text
        FROM placed WHERE pending_orders.id = placed.pending_order_id
    ), oco AS (
      UPDATE pending_orders SET status = 'cancelled', closed_at = now(), updated_at = now(),
             reason = 'Cancelled: its OCO order #' || pend.id || ' filled'
        FROM pend, placed WHERE pending_orders.id = pend.oco_id AND pending_orders.status = 'pending'
      RETURNING pending_orders.id AS oco_cancelled_id
    )
    SELECT trader.*, placed.*, EXISTS (SELECT 1 FROM pend) AS pending_open, (SELECT oco_cancelled_id FROM oco) AS oco_cancelled_id
      FROM trader LEFT JOIN placed ON true`,
};

/** An order with its wallet's currency, read before a close to price it when the server does not remember it. */
export const LOAD_ORDER: Statement = {
  name: 'trading_load_order',
  text: `
    SELECT o.*, b.currency AS wallet_currency
      FROM orders o JOIN balances b ON b.id = o.balance_id
     WHERE o.id = $1::int AND ($2::int IS NULL OR o.user_id = $2::int)`,
};

/**
 * Closes an open order in one statement with its wallet and the order locked (wallet first, as placing does, so the
 * two never deadlock): books the P/L ($4, before spread) and the spread charge ($5) as ledger entries with the
 * running balance, credits negative balance protection for whatever would leave the balance below zero, releases
 * the margin hold, stamps the order, and writes the client's notification when $10 (its title) is not null.
 * The P/L was priced from the amount and spread the caller knew ($12, $13): when a partial close has changed them
 * since, nothing is written and `current_amount` says so (the order columns are null), so the caller prices it again.
 * Returns nothing when the order is no longer open.
 * $1 order, $2 owner or null, $3 actor or null, $4 gross P/L, $5 spread charge, $6 close rate, $7 net P/L,
 * $8 reason, $9 note of the P/L entry, $10 notification title or null, $11 its description, $12 amount, $13 spread,
 * $14 the commission charged at close (0 when none), $15 the plan's commission terms it was priced with: when they
 * have changed, nothing is written either and `commission_key` gives the current ones.
 */
export const CLOSE_ORDER: Statement = {
  name: 'trading_close_order',
  text: `
    WITH locked AS (
      SELECT o.id, o.user_id, o.balance_id, o.margin_used, o.instrument, o.trade_amount, o.spread, b.balance,
             b.balance + $4::numeric AS after_pl,
             b.balance + $4::numeric - $5::numeric AS after_spread,
             b.balance + $4::numeric - $5::numeric - $14::numeric AS after_commission,
             ${commissionKeySql('o.kind')} AS commission_key
        FROM balances b JOIN orders o ON o.balance_id = b.id
        JOIN users u ON u.id = o.user_id LEFT JOIN pricing_plans p ON p.id = u.pricing_table_id
       WHERE o.id = $1::int AND ($2::int IS NULL OR o.user_id = $2::int) AND o.close_time IS NULL
         FOR UPDATE OF b, o
    ), target AS (
      SELECT * FROM locked WHERE trade_amount = $12::numeric AND spread = $13::numeric AND commission_key = $15::text
    ), settle AS (
      UPDATE balances SET balance = GREATEST(target.after_commission, 0), margin = balances.margin - target.margin_used
        FROM target WHERE balances.id = target.balance_id
    ), ledger AS (
      INSERT INTO ledger_entries (balance_id, kind, amount, balance_after, ref_type, ref_id, actor_id, note)
      SELECT target.balance_id, e.kind, e.amount, e.after, 'order', target.id, $3::int, e.note
        FROM target CROSS JOIN LATERAL (VALUES
          (1, 'trade_pl', $4::numeric, target.after_pl, $9::text),
          (2, 'spread', -$5::numeric, target.after_spread, 'Spread on ' || target.instrument),
          (3, 'commission', -$14::numeric, target.after_commission, 'Commission on ' || target.instrument),
          (4, 'negative_balance_protection', GREATEST(-target.after_commission, 0), GREATEST(target.after_commission, 0), 'Negative balance protection')
        ) AS e(seq, kind, amount, after, note)
       WHERE e.amount <> 0
       ORDER BY e.seq
    ), closed AS (
      UPDATE orders SET close_rate = $6::numeric, close_time = now(), pro_loss = $7::numeric, close_reason = $8::text, closed_by = $3::int,
             commission = orders.commission - $14::numeric
        FROM target WHERE orders.id = target.id
      RETURNING orders.*
    ), notice AS (
      INSERT INTO notifications (user_id, title, description, url)
      SELECT closed.user_id, $10::text, $11::text, '/dashboard' FROM closed WHERE $10::text IS NOT NULL
      RETURNING id AS notice_id, title AS notice_title, description AS notice_description, url AS notice_url,
                read_at AS notice_read_at, created_at AS notice_created_at
    )
    SELECT closed.*, GREATEST(target.after_commission, 0) AS wallet_balance, notice.*, locked.trade_amount AS current_amount,
           locked.commission_key
      FROM locked LEFT JOIN closed ON true LEFT JOIN target ON true LEFT JOIN notice ON true`,
};

/** The orders table's columns as the database names them. */
export interface OrderColumns {
  id: number;
  user_id: number;
  balance_id: number;
  balance_mode: string;
  balance_currency: string;
  instrument_id: number;
  instrument: string;
  base_symbol: string;
  quote_symbol: string;
  kind: string;
  type: string;
  trade_amount: string;
  open_rate: string;
  open_bid: string;
  open_ask: string;
  close_rate: string | null;
  close_time: Date | null;
  take_profit: string | null;
  stop_loss: string | null;
  spread: string;
  exchange_rate: string;
  margin_used: string;
  leverage: number;
  pro_loss: string | null;
  close_reason: string | null;
  closed_by: number | null;
  voided_at: Date | null;
  voided_by: number | null;
  trailing_distance: string | null;
  trailing_step: string | null;
  partial_of: number | null;
  pending_order_id: number | null;
  swap: string;
  commission: string;
  created_at: Date;
}

export function orderOfColumns(r: OrderColumns): OrderRow {
  return {
    id: r.id,
    userId: r.user_id,
    balanceId: r.balance_id,
    balanceMode: r.balance_mode,
    balanceCurrency: r.balance_currency,
    instrumentId: r.instrument_id,
    instrument: r.instrument,
    baseSymbol: r.base_symbol,
    quoteSymbol: r.quote_symbol,
    kind: r.kind,
    type: r.type,
    tradeAmount: r.trade_amount,
    openRate: r.open_rate,
    openBid: r.open_bid,
    openAsk: r.open_ask,
    closeRate: r.close_rate,
    closeTime: r.close_time,
    takeProfit: r.take_profit,
    stopLoss: r.stop_loss,
    spread: r.spread,
    exchangeRate: r.exchange_rate,
    marginUsed: r.margin_used,
    leverage: r.leverage,
    proLoss: r.pro_loss,
    closeReason: r.close_reason,
    closedBy: r.closed_by,
    voidedAt: r.voided_at,
    voidedBy: r.voided_by,
    trailingDistance: r.trailing_distance,
    trailingStep: r.trailing_step,
    partialOf: r.partial_of,
    pendingOrderId: r.pending_order_id,
    swap: r.swap,
    commission: r.commission,
    createdAt: r.created_at,
  };
}
