import type { Statement } from '../../db/statements.ts';
import { commissionKeySql, type OrderColumns } from './order-statements.ts';

/**
 * The SQL of changing an open position in place: closing a part of it (a partial close, or a netting account's
 * opposite order that reduces, closes or reverses it) and moving its trailing stop. One statement each, as in
 * order-statements.ts, so every write of one change commits together with the wallet locked.
 */

/**
 * Closes `$4` of an open position at `$12` in one statement, with the wallet and the position locked (wallet first,
 * as every order statement does). A part smaller than the position becomes a closed deal of its own (`partial_of` =
 * the position, its open time and rate) carrying its share of the spread ($9) and margin ($8); the position keeps
 * the rest, with its take-profit, stop-loss and trailing stop. The whole amount closes the position itself. The
 * P/L ($10 gross, $11 spread charge, $13 net) is booked on the deal through the ledger with the running balance and
 * negative balance protection, the margin share released, and the client's notification written when $16 is set.
 *
 * The caller priced all this from the amount, spread and margin it knew ($5, $6, $7): when they have changed since,
 * nothing is written and `facts_hold` is false, so it prices again.
 *
 * On the place path ($18 true: a netting account's order) the trader's order is re-checked as PLACE_ORDER does (a
 * netting plan still, the wallet still active for a market order, KYC when required) and may also open `$20` the other way at the same
 * price (a reversal) when the plan leverage is unchanged, no other position holds the instrument, and the balance
 * after the close covers its margin ($21) in full and in free margin with the wallet's other positions' live P/L ($22).
 * A pending order's fill ($19) is marked filled with the deal (or the new position) and its OCO partner cancelled,
 * only while it is still pending. Nothing at all is written when any of this fails.
 *
 * $1 position, $2 owner or null, $3 actor or null, $4 closed amount, $5 $6 $7 expected amount, spread and margin,
 * $8 margin released, $9 spread of the part, $10 gross P/L, $11 spread charge, $12 close rate, $13 net P/L, $14 reason,
 * $15 note of the P/L entry, $16 notification title or null, $17 its description, $18 placing, $19 pending order or
 * null, $20 amount opened the other way or null, $21 its margin, $22 live P/L of the wallet's other positions,
 * $23 KYC required, $24 expected plan leverage, $25 side, $26 bid, $27 ask, $28 take-profit, $29 stop-loss (of the
 * order: a pending fill's are checked, a reversal's new position takes them), $30 spread, $31 exchange rate,
 * $32 leverage, $33 the commission of the closed part, $34 the commission of the reversal's opening or null, $35 the
 * plan's commission terms both were priced with (nothing is written when they changed; `commission_key` says so).
 */
export const CLOSE_PART: Statement = {
  name: 'trading_close_part',
  text: `
    WITH pos AS (
      SELECT o.*, b.balance AS wallet_balance, b.margin AS wallet_margin,
             o.trade_amount = $5::numeric AND o.spread = $6::numeric AND o.margin_used = $7::numeric AS facts_hold
        FROM balances b JOIN orders o ON o.balance_id = b.id
       WHERE o.id = $1::int AND ($2::int IS NULL OR o.user_id = $2::int) AND o.close_time IS NULL
         FOR UPDATE OF b, o
    ), trader AS (
      SELECT u.active_balance_id, COALESCE(p.account_type, 'hedging') AS account_type,
             CASE pos.kind WHEN 'forex' THEN p.forex_leverage WHEN 'commodity' THEN p.commodity_leverage
                           WHEN 'index' THEN p.index_leverage WHEN 'stock' THEN p.stock_leverage
                           WHEN 'crypto' THEN p.crypto_leverage END AS plan_leverage,
             ${commissionKeySql('pos.kind')} AS commission_key,
             EXISTS (SELECT 1 FROM kyc_documents k WHERE k.user_id = u.id AND k.status = 'approved') AS kyc
        FROM pos JOIN users u ON u.id = pos.user_id LEFT JOIN pricing_plans p ON p.id = u.pricing_table_id
    ), pend AS (
      -- As PLACE_ORDER: still waiting, with the TP/SL it was priced with, its price reached by the triggering quote.
      SELECT id, oco_id FROM pending_orders
       WHERE id = $19::int AND status = 'pending' AND balance_id = (SELECT balance_id FROM pos)
         AND take_profit IS NOT DISTINCT FROM $28::numeric AND stop_loss IS NOT DISTINCT FROM $29::numeric
         AND CASE WHEN order_type = 'stop_limit' AND activated_at IS NULL THEN false
                  WHEN side = 'buy' AND order_type = 'stop' THEN $27::numeric >= price
                  WHEN side = 'buy' THEN $27::numeric <= COALESCE(limit_price, price)
                  WHEN order_type = 'stop' THEN $26::numeric <= price
                  ELSE $26::numeric >= COALESCE(limit_price, price) END
         FOR UPDATE
    ), ok AS (
      SELECT pos.*, pos.wallet_balance + $10::numeric AS after_pl,
             pos.wallet_balance + $10::numeric - $11::numeric AS after_spread,
             pos.wallet_balance + $10::numeric - $11::numeric - $33::numeric AS after_commission,
             $4::numeric = pos.trade_amount AS whole
        FROM pos, trader
       WHERE pos.facts_hold AND $4::numeric > 0 AND $4::numeric <= pos.trade_amount
         AND trader.commission_key = $35::text
         AND (NOT $18::boolean OR (
               trader.account_type = 'netting'
           AND ($19::int IS NOT NULL OR trader.active_balance_id = pos.balance_id)
           AND (NOT $23::boolean OR trader.kyc OR pos.balance_mode = 'demo')))
         AND ($19::int IS NULL OR EXISTS (SELECT 1 FROM pend))
         AND ($20::numeric IS NULL OR (
               trader.plan_leverage IS NOT DISTINCT FROM $24::int
           AND GREATEST(pos.wallet_balance + $10::numeric - $11::numeric - $33::numeric, 0) >= $21::numeric + $34::numeric
           AND GREATEST(pos.wallet_balance + $10::numeric - $11::numeric - $33::numeric, 0) - (pos.wallet_margin - $8::numeric) + $22::numeric
               >= $21::numeric + $34::numeric
           AND NOT EXISTS (SELECT 1 FROM orders x WHERE x.balance_id = pos.balance_id AND x.instrument_id = pos.instrument_id
                              AND x.close_time IS NULL AND x.id <> pos.id)))
    ), settle AS (
      UPDATE balances SET balance = GREATEST(ok.after_commission, 0) - COALESCE($34::numeric, 0),
             margin = balances.margin - $8::numeric + CASE WHEN $20::numeric IS NULL THEN 0 ELSE $21::numeric END
        FROM ok WHERE balances.id = ok.balance_id
    ), part AS (
      INSERT INTO orders (user_id, balance_id, balance_mode, balance_currency, instrument_id, instrument, base_symbol, quote_symbol, kind, type,
                          trade_amount, open_rate, open_bid, open_ask, take_profit, stop_loss, spread, exchange_rate, margin_used, leverage,
                          close_rate, close_time, pro_loss, close_reason, closed_by, partial_of, created_at, commission)
      SELECT ok.user_id, ok.balance_id, ok.balance_mode, ok.balance_currency, ok.instrument_id, ok.instrument, ok.base_symbol, ok.quote_symbol, ok.kind, ok.type,
             $4::numeric, ok.open_rate, ok.open_bid, ok.open_ask, ok.take_profit, ok.stop_loss, $9::numeric, ok.exchange_rate, $8::numeric, ok.leverage,
             $12::numeric, now(), $13::numeric, $14::text, $3::int, ok.id, ok.created_at, -$33::numeric
        FROM ok WHERE NOT ok.whole
      RETURNING *
    ), rest AS (
      UPDATE orders SET trade_amount = orders.trade_amount - $4::numeric, margin_used = orders.margin_used - $8::numeric,
             spread = orders.spread - $9::numeric
        FROM ok WHERE orders.id = ok.id AND NOT ok.whole
      RETURNING orders.trade_amount AS rest_amount, orders.margin_used AS rest_margin, orders.spread AS rest_spread
    ), closed AS (
      UPDATE orders SET close_rate = $12::numeric, close_time = now(), pro_loss = $13::numeric, close_reason = $14::text, closed_by = $3::int,
             commission = orders.commission - $33::numeric
        FROM ok WHERE orders.id = ok.id AND ok.whole
      RETURNING orders.*
    ), deal AS (
      SELECT * FROM part UNION ALL SELECT * FROM closed
    ), opened AS (
      INSERT INTO orders (user_id, balance_id, balance_mode, balance_currency, instrument_id, instrument, base_symbol, quote_symbol, kind, type,
                          trade_amount, open_rate, open_bid, open_ask, take_profit, stop_loss, spread, exchange_rate, margin_used, leverage, pending_order_id,
                          commission)
      SELECT ok.user_id, ok.balance_id, ok.balance_mode, ok.balance_currency, ok.instrument_id, ok.instrument, ok.base_symbol, ok.quote_symbol, ok.kind, $25::text,
             $20::numeric, $12::numeric, $26::numeric, $27::numeric, $28::numeric, $29::numeric, $30::numeric, $31::numeric, $21::numeric, $32::int, $19::int,
             -COALESCE($34::numeric, 0)
        FROM ok WHERE $20::numeric IS NOT NULL
      RETURNING *
    ), ledger AS (
      -- The reversal's opening commission (seq 5) is booked on the position it opens, after the deal's entries.
      INSERT INTO ledger_entries (balance_id, kind, amount, balance_after, ref_type, ref_id, actor_id, note)
      SELECT ok.balance_id, e.kind, e.amount, e.after, 'order', CASE WHEN e.seq = 5 THEN (SELECT id FROM opened) ELSE deal.id END,
             $3::int, e.note
        FROM ok CROSS JOIN deal CROSS JOIN LATERAL (VALUES
          (1, 'trade_pl', $10::numeric, ok.after_pl, $15::text),
          (2, 'spread', -$11::numeric, ok.after_spread, 'Spread on ' || ok.instrument),
          (3, 'commission', -$33::numeric, ok.after_commission, 'Commission on ' || ok.instrument),
          (4, 'negative_balance_protection', GREATEST(-ok.after_commission, 0), GREATEST(ok.after_commission, 0), 'Negative balance protection'),
          (5, 'commission', -COALESCE($34::numeric, 0), GREATEST(ok.after_commission, 0) - COALESCE($34::numeric, 0), 'Commission on ' || ok.instrument)
        ) AS e(seq, kind, amount, after, note)
       WHERE e.amount <> 0
       ORDER BY e.seq
    ), filled AS (
      UPDATE pending_orders SET status = 'filled', order_id = COALESCE((SELECT id FROM opened), (SELECT id FROM deal)),
             fill_price = $12::numeric, closed_at = now(), updated_at = now(), reason = 'Filled at ' || $12::numeric::text
        FROM pend WHERE pending_orders.id = pend.id AND EXISTS (SELECT 1 FROM ok)
    ), oco AS (
      UPDATE pending_orders SET status = 'cancelled', closed_at = now(), updated_at = now(),
             reason = 'Cancelled: its OCO order #' || pend.id || ' filled'
        FROM pend WHERE pending_orders.id = pend.oco_id AND pending_orders.status = 'pending' AND EXISTS (SELECT 1 FROM ok)
      RETURNING pending_orders.id AS oco_cancelled_id
    ), notice AS (
      INSERT INTO notifications (user_id, title, description, url)
      SELECT deal.user_id, $16::text, $17::text, '/dashboard' FROM deal WHERE $16::text IS NOT NULL
      RETURNING id AS notice_id, title AS notice_title, description AS notice_description, url AS notice_url,
                read_at AS notice_read_at, created_at AS notice_created_at
    ), meta AS (
      SELECT EXISTS (SELECT 1 FROM pos) AS found, COALESCE((SELECT facts_hold FROM pos), false) AS facts_hold,
             EXISTS (SELECT 1 FROM pend) AS pending_open, EXISTS (SELECT 1 FROM ok) AS done,
             (SELECT GREATEST(after_commission, 0) - COALESCE($34::numeric, 0) FROM ok) AS wallet_balance,
             (SELECT commission_key FROM trader) AS commission_key,
             (SELECT trade_amount FROM pos) AS current_amount, (SELECT wallet_balance FROM pos) AS balance_before,
             (SELECT oco_cancelled_id FROM oco) AS oco_cancelled_id,
             (SELECT active_balance_id FROM trader) AS active_balance_id, (SELECT account_type FROM trader) AS account_type,
             (SELECT kyc FROM trader) AS kyc, (SELECT plan_leverage FROM trader) AS plan_leverage,
             rest.rest_amount, rest.rest_margin, rest.rest_spread, notice.*
        FROM (SELECT 1) AS one LEFT JOIN rest ON true LEFT JOIN notice ON true
    )
    SELECT meta.*, rows.*
      FROM meta LEFT JOIN (SELECT 'deal' AS role, deal.* FROM deal UNION ALL SELECT 'opened' AS role, opened.* FROM opened) AS rows ON true`,
};

/** One row of CLOSE_PART: its outcome, and the deal or the position it opened (role), or nothing when not done. */
export type ClosePartRow = (OrderColumns | { [K in keyof OrderColumns]: null }) & {
  role: 'deal' | 'opened' | null;
  found: boolean;
  facts_hold: boolean;
  pending_open: boolean;
  done: boolean;
  wallet_balance: string | null;
  current_amount: string | null;
  balance_before: string | null;
  oco_cancelled_id: number | null;
  active_balance_id: number | null;
  account_type: string | null;
  kyc: boolean | null;
  plan_leverage: number | null;
  commission_key: string | null;
  rest_amount: string | null;
  rest_margin: string | null;
  rest_spread: string | null;
  notice_id: number | null;
  notice_title: string | null;
  notice_description: string | null;
  notice_url: string | null;
  notice_read_at: Date | null;
  notice_created_at: Date | null;
};

/** The open positions of a wallet on one instrument, oldest first (a netting account holds at most one). */
export const OPEN_ON_INSTRUMENT: Statement = {
  name: 'trading_open_on_instrument',
  text: `
    SELECT o.*, b.currency AS wallet_currency
      FROM orders o JOIN balances b ON b.id = o.balance_id
     WHERE o.balance_id = $1::int AND o.instrument_id = $2::int AND o.close_time IS NULL
     ORDER BY o.id
     LIMIT 1`,
};

/**
 * Moves a trailing stop to the quote ($2 bid, $3 ask): a buy's stop-loss to bid − distance when that is above zero
 * and above the current stop-loss by at least the step, a sell's to ask + distance when below it by at least the
 * step (strictly better either way). A conditional update of the row's own figures, so a stale or repeated move, a
 * removed trailing stop or a closed position changes nothing, and a stop-loss never moves back.
 */
export const MOVE_TRAILING_STOP: Statement = {
  name: 'trading_move_trailing_stop',
  text: `
    UPDATE orders
       SET stop_loss = CASE WHEN type = 'buy' THEN $2::numeric - trailing_distance ELSE $3::numeric + trailing_distance END
     WHERE id = $1::int AND close_time IS NULL AND trailing_distance IS NOT NULL
       AND CASE WHEN type = 'buy'
                THEN $2::numeric - trailing_distance > 0
                     AND (stop_loss IS NULL OR ($2::numeric - trailing_distance > stop_loss
                                                AND $2::numeric - trailing_distance >= stop_loss + trailing_step))
                ELSE stop_loss IS NULL OR ($3::numeric + trailing_distance < stop_loss
                                           AND $3::numeric + trailing_distance <= stop_loss - trailing_step) END
    RETURNING *`,
};
