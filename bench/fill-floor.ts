import { performance } from 'node:perf_hooks';
import pg from 'pg';

/**
 * The floor under a burst of fills: the bare SQL of the writes a fill makes, for `orders` orders at once, on the bench's
 * own database beside the product's run. One transaction of three statements, timed to its commit:
 *
 *   one INSERT … SELECT of the positions into `orders` (with every index, constraint and foreign key it has),
 *   one UPDATE of the pending orders to filled (with theirs),
 *   one UPDATE of the wallets' held margin,
 *
 * the same three into copies of the three tables with every index and check but no foreign key (what the keys' checks
 * cost), and into index-free copies (no index, no key, no check), so the reader sees what the storage itself costs on
 * this machine. No pricing, no checks, no notifications: what no fill path can go under
 * while each fill is a row of its own. Also the indexed writes split in two halves (whole wallets each) on two
 * connections at once, which is all the parallelism two cores offer.
 */

export interface FloorTimes {
  insert: number;
  pending: number;
  wallets: number;
  commit: number;
  total: number;
}

export interface FloorResult {
  indexed: FloorTimes[];
  keyless: FloorTimes[];
  bare: FloorTimes[];
  /** The indexed writes in two transactions at once: wall time until both committed. */
  twoAtOnce: number[];
}

interface Waiting {
  ids: number[];
  users: number[];
  wallets: number[];
}

const COLUMNS = `id, user_id, balance_id, balance_mode, balance_currency, instrument_id, instrument, base_symbol, quote_symbol,
  kind, type, trade_amount, open_rate, open_bid, open_ask, take_profit, stop_loss, spread, exchange_rate, margin_used,
  leverage, pending_order_id, commission`;

/** The writes of `w`'s fills into the given tables, each statement timed, the last to its commit. */
async function writeFills(
  c: pg.Client,
  w: Waiting,
  orderIds: number[],
  t: { orders: string; pending: string; balances: string; instrument: number },
): Promise<FloorTimes> {
  const t0 = performance.now();
  await c.query('BEGIN');
  await c.query(
    `INSERT INTO ${t.orders} (${COLUMNS})
     SELECT u.order_id, u.user_id, u.wallet_id, 'real', 'USD', $4::int, 'EUR_USD', 'EUR', 'USD', 'forex', 'buy', 1000, 1.0994,
            1.0992, 1.0994, NULL, NULL, 0.2, 1, 10.994, 100, u.pending_id, 0
       FROM unnest($1::int[], $2::int[], $3::int[], $5::int[]) AS u(pending_id, user_id, wallet_id, order_id)`,
    [w.ids, w.users, w.wallets, t.instrument, orderIds],
  );
  const t1 = performance.now();
  await c.query(
    `UPDATE ${t.pending} p SET status = 'filled', order_id = u.order_id, fill_price = 1.0994, closed_at = now(),
            updated_at = now(), reason = 'Filled at 1.0994'
       FROM unnest($1::int[], $2::int[]) AS u(pending_id, order_id)
      WHERE p.id = u.pending_id AND p.status = 'pending'`,
    [w.ids, orderIds],
  );
  const t2 = performance.now();
  await c.query(
    `UPDATE ${t.balances} b SET margin = b.margin + s.margin
       FROM (SELECT wallet_id, count(*) * 10.994 AS margin FROM unnest($1::int[]) AS u(wallet_id) GROUP BY wallet_id) s
      WHERE b.id = s.wallet_id`,
    [w.wallets],
  );
  const t3 = performance.now();
  await c.query('COMMIT');
  const t4 = performance.now();
  return { insert: t1 - t0, pending: t2 - t1, wallets: t3 - t2, commit: t4 - t3, total: t4 - t0 };
}

/** `n` new waiting orders in `table` (10 a wallet, as the bench's), ordered by wallet. */
async function newWaiting(c: pg.Client, instrument: number, wallets: number[], n: number): Promise<Waiting> {
  const per = Math.ceil(n / wallets.length);
  const r = await c.query<{ id: number; user_id: number; balance_id: number }>(
    `INSERT INTO pending_orders (user_id, balance_id, instrument_id, instrument, side, order_type, amount, price)
     SELECT b.user_id, b.id, $3::int, 'EUR_USD', 'buy', 'limit', 1000, 1.0995
       FROM (SELECT id, user_id FROM balances WHERE id = ANY($1::int[])) b, generate_series(1, $2::int)
      ORDER BY b.id
     LIMIT $4::int
     RETURNING id, user_id, balance_id`,
    [wallets, per, instrument, n],
  );
  const rows = r.rows.sort((a, b) => a.balance_id - b.balance_id || a.id - b.id);
  return { ids: rows.map((x) => x.id), users: rows.map((x) => x.user_id), wallets: rows.map((x) => x.balance_id) };
}

async function nextIds(c: pg.Client, n: number): Promise<number[]> {
  const r = await c.query<{ id: string }>(`SELECT nextval('orders_id_seq') AS id FROM generate_series(1, $1::int)`, [
    n,
  ]);
  return r.rows.map((x) => Number(x.id));
}

const half = (w: Waiting, ids: number[], first: boolean): [Waiting, number[]] => {
  // Split at a wallet's boundary, so the two transactions never wait for one another.
  let cut = Math.floor(w.ids.length / 2);
  while (cut < w.ids.length && cut > 0 && w.wallets[cut] === w.wallets[cut - 1]) cut++;
  const pick = <T>(a: T[]) => (first ? a.slice(0, cut) : a.slice(cut));
  return [{ ids: pick(w.ids), users: pick(w.users), wallets: pick(w.wallets) }, pick(ids)];
};

/**
 * Runs the floor `runs` times on the database at `url`, on the given wallets (which must exist there), with EUR/USD
 * orders the product never sees (its pending book is not told of them).
 */
export async function fillFloor(url: string, wallets: number[], orders: number, runs: number): Promise<FloorResult> {
  const a = new pg.Client({ connectionString: url });
  const b = new pg.Client({ connectionString: url });
  await a.connect();
  await b.connect();
  const out: FloorResult = { indexed: [], keyless: [], bare: [], twoAtOnce: [] };
  try {
    const [{ id: instrument }] = (await a.query<{ id: number }>(`SELECT id FROM instruments WHERE name = 'EUR_USD'`))
      .rows;
    const copies = async (prefix: string, like: string) => {
      await a.query(`
        DROP TABLE IF EXISTS ${prefix}_orders, ${prefix}_pending_orders, ${prefix}_balances;
        CREATE TABLE ${prefix}_orders (LIKE orders ${like});
        CREATE TABLE ${prefix}_pending_orders (LIKE pending_orders ${like});
        CREATE TABLE ${prefix}_balances (LIKE balances ${like});
        INSERT INTO ${prefix}_balances SELECT * FROM balances;`);
      // The tables' storage parameters too (the orders' fillfactor), which LIKE leaves out.
      for (const table of ['orders', 'pending_orders', 'balances']) {
        const r = await a.query<{ o: string[] | null }>(
          'SELECT reloptions AS o FROM pg_class WHERE oid = $1::regclass',
          [table],
        );
        if (r.rows[0]?.o?.length) await a.query(`ALTER TABLE ${prefix}_${table} SET (${r.rows[0].o.join(', ')})`);
      }
      return {
        orders: `${prefix}_orders`,
        pending: `${prefix}_pending_orders`,
        balances: `${prefix}_balances`,
        instrument,
      };
    };
    const real = { orders: 'orders', pending: 'pending_orders', balances: 'balances', instrument };
    const keyless = await copies('floor_keyless', 'INCLUDING ALL');
    const copy = await copies('floor_bare', 'INCLUDING DEFAULTS');
    for (let run = 0; run < runs; run++) {
      // The copy's waiting orders are the real ones' twins (same ids, users and wallets).
      const w = await newWaiting(a, instrument, wallets, orders);
      for (const t of [keyless, copy])
        await a.query(`INSERT INTO ${t.pending} SELECT * FROM pending_orders WHERE id = ANY($1::int[])`, [w.ids]);
      const w2 = await newWaiting(a, instrument, wallets, orders);
      await a.query(`ANALYZE pending_orders, ${keyless.pending}, ${copy.pending}`);
      out.indexed.push(await writeFills(a, w, await nextIds(a, w.ids.length), real));
      out.keyless.push(await writeFills(a, w, await nextIds(a, w.ids.length), keyless));
      out.bare.push(await writeFills(a, w, await nextIds(a, w.ids.length), copy));
      const ids2 = await nextIds(a, w2.ids.length);
      const [w2a, ids2a] = half(w2, ids2, true);
      const [w2b, ids2b] = half(w2, ids2, false);
      const t0 = performance.now();
      await Promise.all([writeFills(a, w2a, ids2a, real), writeFills(b, w2b, ids2b, real)]);
      out.twoAtOnce.push(performance.now() - t0);
    }
    for (const t of [keyless, copy]) await a.query(`DROP TABLE ${t.orders}, ${t.pending}, ${t.balances}`);
  } finally {
    await a.end();
    await b.end();
  }
  return out;
}
