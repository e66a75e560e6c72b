/**
 * The rollover's batch: one statement (one transaction) charges or credits a batch of positions of one trading date.
 * It takes its lane's row first in phase 'open' (the run's row in phase 'closed'): two instances running the same
 * date take turns, each batch going on from where the last one stopped. Then the batch's wallets in id order (the
 * order path takes a wallet before its orders, so the two never deadlock; lanes hold wallets of their own), and
 * writes everything or nothing: each position's swap_charges row (the idempotency key: a position charged for the
 * date already is skipped), its orders.swap, one ledger entry per position with the running balance, the wallets'
 * balances and the progress. The entries are linked into their wallets' hash chains here, each wallet's last link read
 * once (migration 0043), rather than by the chain's trigger entry by entry.
 *
 * Phase 'open' walks the open positions of one lane's wallets by wallet id (the partial index of open positions),
 * about `batch` positions a time, every position of a wallet in the same batch; the lanes run side by side. Phase
 * 'closed' then takes the positions closed since the cutoff (the rollover ran late), by order id.
 *
 * Amounts, in the wallet's currency (the position's own exchange rate): a swap of trade amount × open rate × the
 * side's rate (percent a year) × days ÷ 360, rounded to 8 places; on a swap-free plan no swap but, once the position
 * has been held more than the plan's free days, minus the plan's daily fee × days. A debit the wallet cannot cover is
 * cut to what its balance holds (the balance never goes below zero; debits shrink in proportion, rounded towards 0).
 *
 * The batch's bounds come as values read just before (the progress, the last wallet of the batch, the cutoff), so the
 * planner sees how few rows they hold and walks the indexes; the statement writes nothing when the progress has moved
 * on meanwhile (another instance took the batch) or the lane is gone (a run by hand started the date again), and the
 * caller reads the progress again. It is sent unnamed, planned for its own values each time.
 *
 * $1 trading date, $2 batch size (positions), $3 days per category (forex, commodity, index, stock, crypto),
 * $4 the rollover's time zone, $5 its time (HH:MM), $6 the acting admin or null, $7 the progress (the lane's last
 * wallet id, or the run's last order id in phase 'closed'), $8 the batch's last wallet id (phase 'open'), $9 the
 * cutoff, $10 the lane (phase 'open').
 */
const batchText = (phase: 'open' | 'closed', again = false) => `
  WITH run AS (${
    phase === 'open'
      ? `
    -- The lane's row is the lock; the run's row is only read (its lanes exist only while it walks open positions).
    SELECT l.trading_date FROM rollover_lanes l
      JOIN rollover_runs r ON r.trading_date = l.trading_date
     WHERE l.trading_date = $1::date AND l.lane = $10::int AND l.last_balance_id = $7::int
       AND r.finished_at IS NULL AND date_trunc('milliseconds', r.cutoff) = $9::timestamptz
       FOR NO KEY UPDATE OF l`
      : `
    SELECT trading_date FROM rollover_runs
     WHERE trading_date = $1::date AND finished_at IS NULL AND date_trunc('milliseconds', cutoff) = $9::timestamptz
       AND last_balance_id = ${DONE} AND last_order_id = $7::int
       FOR UPDATE`
  }
  ), cand AS (
    SELECT o.id, o.balance_id, o.balance_currency, o.instrument, o.type, o.trade_amount, o.open_rate, o.exchange_rate,
           o.created_at, i.category, i.swap_long, i.swap_short, COALESCE(p.swap_free, false) AS swap_free,
           COALESCE(p.swap_free_fee, 0) AS swap_free_fee, COALESCE(p.swap_free_days, 0) AS swap_free_days
      FROM orders o
      JOIN instruments i ON i.id = o.instrument_id
      -- The owner's plan, one key lookup per position (the batch is a sliver of the users).
      LEFT JOIN pricing_plans p ON p.id = (SELECT u.pricing_table_id FROM users u WHERE u.id = o.user_id)
     WHERE EXISTS (SELECT 1 FROM run)
       AND ${
         phase === 'open'
           ? `o.close_time IS NULL AND o.balance_id > $7::int AND o.balance_id <= $8::int`
           : `o.close_time > $9::timestamptz AND o.id > $7::int
              -- A part cut off a position after that position was charged: the position's charge covered it.
              AND NOT EXISTS (SELECT 1 FROM swap_charges s WHERE s.order_id = o.partial_of AND s.trading_date = $1::date
                                 AND s.created_at < o.close_time)`
       }
       AND o.created_at <= $9::timestamptz AND o.voided_at IS NULL${
         again
           ? `
       -- A date run again: most positions were charged by its earlier run; skipped here without locking their wallets.
       AND NOT EXISTS (SELECT 1 FROM swap_charges s WHERE s.order_id = o.id AND s.trading_date = $1::date)`
           : ''
       }
     ${phase === 'closed' ? 'ORDER BY o.id LIMIT $2::int' : ''}
  ), priced AS (
    SELECT c.id, c.balance_id, c.balance_currency, c.instrument, d.days,
           CASE WHEN c.swap_free THEN 'fee' ELSE 'swap' END AS kind,
           CASE
             WHEN d.days = 0 THEN 0
             WHEN c.swap_free THEN
               CASE WHEN $1::date - ((c.created_at AT TIME ZONE $4::text) + (interval '24 hours' - $5::text::interval))::date
                         >= c.swap_free_days
                    THEN -c.swap_free_fee * d.days ELSE 0 END
             ELSE round(c.trade_amount * c.open_rate * (CASE c.type WHEN 'buy' THEN c.swap_long ELSE c.swap_short END)
                        * d.days / (c.exchange_rate * 36000), 8)
           END AS amount
      FROM cand c
      CROSS JOIN LATERAL (SELECT CASE c.category WHEN 'forex' THEN ($3::int[])[1] WHEN 'commodity' THEN ($3::int[])[2]
                                   WHEN 'index' THEN ($3::int[])[3] WHEN 'stock' THEN ($3::int[])[4]
                                   ELSE ($3::int[])[5] END AS days) d
  ), wallets AS (
    SELECT b.id, b.balance FROM balances b
     WHERE b.id IN (SELECT balance_id FROM priced WHERE amount <> 0)
     ORDER BY b.id
       FOR UPDATE
  ), debits AS (
    SELECT balance_id, sum(amount) AS total FROM priced WHERE amount < 0 GROUP BY balance_id
  ), applied AS (
    SELECT p.id, p.balance_id, p.balance_currency, p.instrument, p.kind, p.days,
           CASE WHEN p.amount < 0 AND w.balance + d.total < 0 THEN trunc(p.amount * w.balance / -d.total, 8)
                ELSE p.amount END AS amount
      FROM priced p
      JOIN wallets w ON w.id = p.balance_id
      LEFT JOIN debits d ON d.balance_id = p.balance_id
     WHERE p.amount <> 0
  ), charged AS (
    INSERT INTO swap_charges (order_id, trading_date, kind, days, amount, currency)
    SELECT a.id, $1::date, a.kind, a.days, a.amount, a.balance_currency FROM applied a
     -- Every wallet of the batch is locked before the first charge is written.
     WHERE (SELECT count(*) FROM wallets) >= 0
     ORDER BY a.balance_id, a.id
    ON CONFLICT (order_id, trading_date) DO NOTHING
    RETURNING order_id, amount
  ), booked AS (
    SELECT c.order_id, c.amount, a.balance_id, a.kind, a.days, a.instrument,
           sum(c.amount) OVER (PARTITION BY a.balance_id ORDER BY c.order_id) AS running,
           sum(c.amount) OVER (PARTITION BY a.balance_id) AS total
      FROM charged c JOIN applied a ON a.id = c.order_id
  ), moved AS (
    -- "= ANY(the ids)" as well as the join: the planner then looks the few rows up instead of scanning the table.
    UPDATE balances b SET balance = b.balance + t.total
      FROM (SELECT DISTINCT balance_id, total FROM booked) t
     WHERE b.id = t.balance_id AND b.id = ANY((SELECT array_agg(DISTINCT balance_id) FROM booked)::int[])
    RETURNING b.id, b.balance
  ), heads AS (
    -- The wallets' last links, read once their rows are locked (with a snapshot of its own: migration 0043).
    SELECT m.id AS balance_id, m.balance, h.chain_seq, h.hash
      FROM moved m JOIN ledger_chain_heads((SELECT array_agg(id) FROM moved)) h ON h.balance_id = m.id
  ), entries AS (
    -- An entry per position, numbered in its wallet's chain after the wallet's last link (ids in the same order).
    SELECT nextval('ledger_entries_id_seq') AS id, e.* FROM (
      SELECT k.balance_id, k.order_id, h.hash AS head, k.amount::numeric(20, 8) AS amount,
             (h.balance - k.total + k.running)::numeric(20, 8) AS balance_after,
             COALESCE(h.chain_seq, 0) + row_number() OVER (PARTITION BY k.balance_id ORDER BY k.order_id) AS chain_seq,
             CASE k.kind WHEN 'fee' THEN 'Swap-free fee on ' ELSE 'Swap on ' END || k.instrument || ' for '
               || $1::date::text || CASE WHEN k.days > 1 THEN ' (' || k.days || ' days)' ELSE '' END AS note
        FROM booked k JOIN heads h ON h.balance_id = k.balance_id
       ORDER BY k.balance_id, k.order_id) e
  ), linked AS (
    SELECT e.*, ledger_link(e.head, ledger_entry_text(e.id, e.balance_id, e.chain_seq, 'swap', e.amount, e.balance_after,
                                                      'order', e.order_id, $6::int, e.note, now()))
                  OVER (PARTITION BY e.balance_id ORDER BY e.chain_seq) AS hash
      FROM entries e
  ), ledger AS (
    -- The entries bring their links, so the chain's trigger passes them by.
    INSERT INTO ledger_entries (id, balance_id, kind, amount, balance_after, ref_type, ref_id, actor_id, note, created_at,
                                chain_seq, prev_hash, hash)
    SELECT l.id, l.balance_id, 'swap', l.amount, l.balance_after, 'order', l.order_id, $6::int, l.note, now(),
           l.chain_seq, COALESCE(lag(l.hash) OVER (PARTITION BY l.balance_id ORDER BY l.chain_seq), l.head), l.hash
      FROM linked l
     ORDER BY l.balance_id, l.chain_seq
  ), positions AS (
    UPDATE orders o SET swap = o.swap + c.amount FROM charged c
     WHERE o.id = c.order_id AND o.id = ANY((SELECT array_agg(order_id) FROM charged)::int[])
  ), progress AS (${
    phase === 'open'
      ? `
    UPDATE rollover_lanes l SET last_balance_id = $8::int, charged = l.charged + (SELECT count(*) FROM charged)::int
      FROM run WHERE l.trading_date = run.trading_date AND l.lane = $10::int`
      : `
    UPDATE rollover_runs r
       SET last_order_id = COALESCE((SELECT max(id) FROM cand), $7::int),
           finished_at = CASE WHEN (SELECT count(*) FROM cand) < $2::int THEN now() END,
           charged = r.charged + (SELECT count(*) FROM charged)::int
      FROM run WHERE r.trading_date = run.trading_date`
  }
  )
  SELECT (SELECT count(*) FROM run)::int AS running,
         (SELECT count(*) FROM cand)::int AS positions,
         (SELECT count(*) FROM charged)::int AS charged,
         COALESCE((SELECT array_agg(id) FROM moved), '{}') AS wallets`;

/** last_balance_id once every wallet's open positions were taken. */
export const DONE = 2147483647;

export const ROLLOVER_OPEN_BATCH = batchText('open');
/** The same for a date whose rollover ran before: positions it charged are passed over by their key. */
export const ROLLOVER_OPEN_AGAIN_BATCH = batchText('open', true);
export const ROLLOVER_CLOSED_BATCH = batchText('closed');

/**
 * Splits a run's open positions into lanes, once: when the run walks open positions and has none (a new run, a run
 * by hand that started the date again, a run cut short by older code). The lanes' bounds are the wallets at the
 * run's progress, at each fraction of the open positions left by wallet id (positions, not wallets, so the lanes have
 * about as much to do), and DONE; a lane may be empty when few wallets hold positions. Under the run's row lock, so
 * two instances make the lanes once. $1 trading date, $2 the fractions (lanes − 1 of them).
 */
export const START_LANES = `
  WITH run AS (
    SELECT trading_date, last_balance_id FROM rollover_runs
     WHERE trading_date = $1::date AND finished_at IS NULL AND last_balance_id < ${DONE}
       FOR UPDATE
  ), cuts AS (
    SELECT percentile_disc($2::float8[]) WITHIN GROUP (ORDER BY o.balance_id) AS b
      FROM orders o WHERE o.close_time IS NULL AND o.balance_id > (SELECT last_balance_id FROM run)
  ), bounds AS (
    SELECT run.trading_date,
           array_append(ARRAY[run.last_balance_id] || COALESCE((SELECT b FROM cuts), '{}'::int[]), ${DONE}) AS b
      FROM run
     WHERE NOT EXISTS (SELECT 1 FROM rollover_lanes l WHERE l.trading_date = run.trading_date)
  )
  INSERT INTO rollover_lanes (trading_date, lane, last_balance_id, end_balance_id)
  SELECT trading_date, k - 1, b[k], b[k + 1] FROM bounds, generate_series(1, array_length(b, 1) - 1) k
  ON CONFLICT DO NOTHING`;

/**
 * Once every lane reached its end: the lanes' counts go into the run, the lanes are deleted and the run's progress
 * says every wallet is done (the closed positions come next). The run's row is locked first, as a run by hand does.
 * Nothing happens while a lane has wallets left. $1 trading date.
 */
export const FINISH_LANES = `
  WITH run AS (
    SELECT trading_date FROM rollover_runs WHERE trading_date = $1::date FOR UPDATE
  ), done AS (
    DELETE FROM rollover_lanes l USING run
     WHERE l.trading_date = run.trading_date
       AND NOT EXISTS (SELECT 1 FROM rollover_lanes u WHERE u.trading_date = $1::date AND u.last_balance_id < u.end_balance_id)
    RETURNING l.charged
  )
  UPDATE rollover_runs r SET last_balance_id = ${DONE}, charged = r.charged + (SELECT sum(charged) FROM done)::int
    FROM run WHERE r.trading_date = run.trading_date AND EXISTS (SELECT 1 FROM done)`;

/**
 * A run by hand starts its date again: the lanes left by an earlier run are deleted and their counts kept in the run.
 * Sent after the run's row was written (locked) in the same transaction. $1 trading date.
 */
export const FOLD_LANES = `
  WITH gone AS (DELETE FROM rollover_lanes WHERE trading_date = $1::date RETURNING charged)
  UPDATE rollover_runs r SET charged = r.charged + (SELECT sum(charged) FROM gone)::int
   WHERE r.trading_date = $1::date AND EXISTS (SELECT 1 FROM gone)`;

/** The last wallet id of the next batch of open positions (null: the rest fit in one). $1 progress, $2 batch size. */
export const NEXT_WALLET_BOUND = `
  SELECT balance_id FROM orders WHERE close_time IS NULL AND balance_id > $1::int
   ORDER BY balance_id OFFSET $2::int - 1 LIMIT 1`;

export interface BatchRow {
  /** 0 when the run had moved on (finished, or another instance took the batch): nothing was done. */
  running: number;
  positions: number;
  charged: number;
  /** Wallets whose balance moved. */
  wallets: number[];
}
