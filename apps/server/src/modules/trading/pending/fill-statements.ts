import type { Statement } from '../../../db/statements.ts';
import { commissionKeySql, PLAN_TERM_COLUMNS, type OrderColumns, type TraderRow } from '../order-statements.ts';

/**
 * The SQL of filling many pending orders of one instrument reached by one tick (fill-batch.ts). One statement for
 * the whole batch: it locks the wallets in id order (so two batches, or a batch and a single order, never
 * deadlock), re-checks each order exactly as PLACE_ORDER does for one, writes the positions, holds the margin, marks
 * the orders filled and cancels their OCO partners, all or nothing. (The owners' notifications are stored after it:
 * joining the statement's own rows to one another would be planned as nested loops, for the planner cannot tell
 * how many rows an array holds.)
 */

/** The wallets of a batch with their owner, plan terms and KYC state, read without a lock (the fill re-checks). */
export const LOAD_WALLET_TRADERS: Statement = {
  name: 'pending_load_wallet_traders',
  text: `
    SELECT b.id AS wallet_id, b.user_id, b.currency AS wallet_currency, b.mode AS wallet_mode,
           p.id AS plan_id, p.forex_leverage, p.commodity_leverage, p.index_leverage, p.stock_leverage, p.crypto_leverage, p.forex_stopout,
           p.account_type, ${PLAN_TERM_COLUMNS},
           EXISTS (SELECT 1 FROM kyc_documents k WHERE k.user_id = b.user_id AND k.status = 'approved') AS kyc
      FROM balances b
      JOIN users u ON u.id = b.user_id
      LEFT JOIN pricing_plans p ON p.id = u.pricing_table_id
     WHERE b.id = ANY($1::int[])`,
};

export type WalletTraderRow = TraderRow & { user_id: number };

/**
 * Fills a batch. Per order ($1..$14, arrays of one length): pending order, wallet, owner, margin, expected plan
 * leverage of the category, side, amount, open rate, TP, SL, spread charge, conversion rate, leverage, the wallet's
 * live P/L. For the whole batch: $15 instrument id, $16 its
 * name, $17 base, $18 quote, $19 category, $20 bid and $21 ask of the tick, $22 KYC required; and per order again
 * $23 the commission charged at open and $24 the plan's commission terms it was priced with. `wallet_balance` is
 * the balance before the batch's commissions.
 * An order is filled only while it still waits as it was priced (same wallet, owner, amount, side, TP and SL) and
 * the tick reaches its current price; only while its wallet still has the plan leverage it was priced with, KYC when
 * required, hedging (a netting account nets one order at a time), and the margin within the balance; and only while
 * the margins of the wallet's orders so far in the batch fit in its free margin. Of two OCO partners both in the
 * batch the later waits. What is not filled is simply left out of the answer: the caller sends it the one-order way,
 * which says why. The answer's rows are the positions, then one row per OCO partner cancelled.
 */
export const FILL_PENDING_BATCH: Statement = {
  name: 'pending_fill_batch',
  text: `
    WITH input AS (
      SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::numeric[], $5::int[], $6::text[], $7::numeric[], $8::numeric[],
                           $9::numeric[], $10::numeric[], $11::numeric[], $12::numeric[], $13::int[], $14::numeric[], $23::numeric[], $24::text[])
        WITH ORDINALITY AS i(pending_id, wallet_id, user_id, margin, plan_leverage, side, amount, rate, tp, sl, spread,
                             conversion, leverage, live_pl, commission, commission_key, seq)
    ), wallets AS (
      SELECT b.id AS wallet_id, b.user_id, b.mode, b.currency, b.balance, b.margin AS held, p.account_type,
             CASE $19::text WHEN 'forex' THEN p.forex_leverage WHEN 'commodity' THEN p.commodity_leverage WHEN 'index' THEN p.index_leverage
                            WHEN 'stock' THEN p.stock_leverage WHEN 'crypto' THEN p.crypto_leverage END AS plan_leverage,
             ${commissionKeySql('$19::text')} AS commission_key,
             EXISTS (SELECT 1 FROM kyc_documents k WHERE k.user_id = b.user_id AND k.status = 'approved') AS kyc
        FROM balances b
        JOIN users u ON u.id = b.user_id
        LEFT JOIN pricing_plans p ON p.id = u.pricing_table_id
       WHERE b.id = ANY($2::int[])
       ORDER BY b.id
         FOR UPDATE OF b
    ), pend AS (
      -- Each order looked up by its key, from the batch's own list, and locked while it still waits as it was priced:
      -- a plan that reads the waiting orders instead costs a batch the whole book (the planner cannot tell how many
      -- rows an array holds, nor, before the table is analysed, how many orders wait).
      SELECT i.*, po.oco_id
        FROM input i
        JOIN LATERAL (
          SELECT po.oco_id FROM pending_orders po
           WHERE po.id = i.pending_id AND po.status = 'pending' AND po.balance_id = i.wallet_id AND po.user_id = i.user_id
             AND po.instrument_id = $15::int AND po.side = i.side AND po.amount = i.amount
             AND po.take_profit IS NOT DISTINCT FROM i.tp AND po.stop_loss IS NOT DISTINCT FROM i.sl
             AND CASE WHEN po.order_type = 'stop_limit' AND po.activated_at IS NULL THEN false
                      WHEN po.side = 'buy' AND po.order_type = 'stop' THEN $21::numeric >= po.price
                      WHEN po.side = 'buy' THEN $21::numeric <= COALESCE(po.limit_price, po.price)
                      WHEN po.order_type = 'stop' THEN $20::numeric <= po.price
                      ELSE $20::numeric >= COALESCE(po.limit_price, po.price) END
             AND NOT (po.oco_id IS NOT NULL AND po.oco_id < po.id AND po.oco_id = ANY($1::int[]))
             FOR UPDATE
        ) po ON true
       -- Every wallet is locked before the first order is (as every pending-order change locks them), so a fill
       -- and a change never deadlock: counting the wallets reads them all first.
       WHERE (SELECT count(*) FROM wallets) > 0
    ), eligible AS (
      SELECT pend.*, w.mode, w.currency, w.balance, w.held,
             sum(pend.margin + pend.commission) OVER (PARTITION BY pend.wallet_id ORDER BY pend.seq) AS needed,
             w.balance - sum(pend.commission) OVER (PARTITION BY pend.wallet_id ORDER BY pend.seq) AS balance_after
        FROM pend JOIN wallets w ON w.wallet_id = pend.wallet_id
       WHERE w.user_id = pend.user_id
         AND w.plan_leverage IS NOT DISTINCT FROM pend.plan_leverage
         AND w.commission_key = pend.commission_key
         AND (NOT $22::boolean OR w.kyc OR w.mode = 'demo')
         AND w.account_type IS DISTINCT FROM 'netting'
         AND w.balance >= pend.margin + pend.commission
    ), accepted AS (
      -- A wallet's accepted orders are the first of its eligible ones (the margins needed only grow), so
      -- balance_after is each one's running balance; the position ids are taken here so that nothing below has to
      -- join the statement's own rows to one another.
      SELECT eligible.*, nextval('orders_id_seq') AS order_id FROM eligible WHERE balance - held + live_pl >= needed
    ), placed AS (
      INSERT INTO orders (id, user_id, balance_id, balance_mode, balance_currency, instrument_id, instrument, base_symbol, quote_symbol,
                          kind, type, trade_amount, open_rate, open_bid, open_ask, take_profit, stop_loss, spread, exchange_rate,
                          margin_used, leverage, pending_order_id, commission)
      SELECT a.order_id, a.user_id, a.wallet_id, a.mode, a.currency, $15::int, $16::text, $17::text, $18::text, $19::text, a.side, a.amount, a.rate,
             $20::numeric, $21::numeric, a.tp, a.sl, a.spread, a.conversion, a.margin, a.leverage, a.pending_id, -a.commission
        FROM accepted a ORDER BY a.seq
      RETURNING *
    ), hold AS (
      UPDATE balances SET margin = balances.margin + s.margin, balance = balances.balance + s.commission
        FROM (SELECT balance_id, sum(margin_used) AS margin, sum(commission) AS commission FROM placed GROUP BY balance_id) s
       WHERE balances.id = s.balance_id
    ), charged AS (
      INSERT INTO ledger_entries (balance_id, kind, amount, balance_after, ref_type, ref_id, note)
      SELECT a.wallet_id, 'commission', -a.commission, a.balance_after, 'order', a.order_id, 'Commission on ' || $16::text
        FROM accepted a WHERE a.commission > 0 ORDER BY a.seq
    ), filled AS (
      UPDATE pending_orders SET status = 'filled', order_id = placed.id, fill_price = placed.open_rate, closed_at = now(), updated_at = now(),
             reason = 'Filled at ' || placed.open_rate::text
        FROM placed WHERE pending_orders.id = placed.pending_order_id
    ), oco AS (
      UPDATE pending_orders SET status = 'cancelled', closed_at = now(), updated_at = now(),
             reason = 'Cancelled: its OCO order #' || accepted.pending_id || ' filled'
        FROM accepted WHERE pending_orders.id = accepted.oco_id AND pending_orders.status = 'pending'
      RETURNING pending_orders.id AS oco_cancelled_id, accepted.pending_id AS oco_of
    )
    SELECT placed.*, w.balance AS wallet_balance, NULL::int AS oco_cancelled_id, NULL::int AS oco_of
      FROM placed JOIN wallets w ON w.wallet_id = placed.balance_id
    UNION ALL
    -- Each OCO partner cancelled comes on a row of its own: joined to the positions, the planner (which cannot tell
    -- how many rows an array holds) would read every cancelled partner once per position.
    SELECT (NULL::orders).*, NULL, oco.oco_cancelled_id, oco.oco_of FROM oco`,
};

/** A row of FILL_PENDING_BATCH: a position (its columns and wallet balance) or an OCO partner it cancelled (ids only). */
export type FilledColumns =
  | (OrderColumns & { wallet_balance: string; oco_cancelled_id: null; oco_of: null })
  | (Record<keyof OrderColumns | 'wallet_balance', null> & { oco_cancelled_id: number; oco_of: number });

/** Stores the owners' notifications of a burst's fills: $1 owners, $2 texts, one each. */
export const NOTIFY_FILLED: Statement = {
  name: 'pending_notify_filled',
  text: `
    INSERT INTO notifications (user_id, title, description, url)
    SELECT n.user_id, 'Pending order filled', n.description, '/dashboard'
      FROM unnest($1::int[], $2::text[]) AS n(user_id, description)
    RETURNING id, user_id, title, description, url, read_at, created_at`,
};

export interface NotificationColumns {
  id: number;
  user_id: number;
  title: string;
  description: string | null;
  url: string | null;
  read_at: Date | null;
  created_at: Date;
}
