/**
 * The ledger hash chain's own cost, apart from the rest of the order path: on a fresh PostgreSQL database migrated as
 * the server does, with funded wallets, it measures with the chain off and on, alternating (off, on, off, on, ...) so
 * that a drift of a shared machine falls on both sides:
 *   1. inside the database: one statement inserting `--rows` ledger entries spread over the wallets (the trigger's
 *      cost per row, without any round trip), in microseconds per row;
 *   2. from clients: `--concurrency` connections running the money path's transaction (lock the wallet, insert its
 *      ledger entry, update its balance) on random wallets for `--seconds`, in transactions per second.
 * Each pair's ratio (on / off) is printed, and their median.
 *
 *   node --import tsx bench/ledger-chain.ts [--pg-url=postgres://postgres@127.0.0.1:5432/postgres] [--rows=5000]
 *                                           [--rounds=6] [--wallets=200] [--concurrency=8] [--seconds=5]
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { createCustomers } from './customers.ts';
import { benchDatabase } from './pg-database.ts';
import { setLedgerChain } from './records-chain.ts';

const { values: args } = parseArgs({
  options: {
    'pg-url': { type: 'string', default: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
    rows: { type: 'string', default: '5000' },
    rounds: { type: 'string', default: '6' },
    wallets: { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '8' },
    seconds: { type: 'string', default: '5' },
  },
});
const ROWS = Number(args.rows);
const ROUNDS = Number(args.rounds);
const WALLETS = Number(args.wallets);
const CONCURRENCY = Number(args.concurrency);
const SECONDS = Number(args.seconds);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Microseconds per ledger entry of one INSERT … SELECT of `ROWS` entries spread over the wallets (one round trip). */
async function insertCost(client: pg.PoolClient, walletIds: number[]): Promise<number> {
  const t0 = performance.now();
  await client.query(
    `INSERT INTO ledger_entries (balance_id, kind, amount, balance_after, ref_type, note)
     SELECT ($1::int[])[1 + (g % array_length($1::int[], 1))], 'adjustment', 0.01, 0, 'bench', 'chain cost'
       FROM generate_series(1, $2::int) g`,
    [walletIds, ROWS],
  );
  return ((performance.now() - t0) * 1000) / ROWS;
}

/** Transactions a second of the money path's shape, `CONCURRENCY` clients on random wallets for `SECONDS`. */
async function moneyPath(pool: pg.Pool, walletIds: number[]): Promise<number> {
  const end = Date.now() + SECONDS * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      const c = await pool.connect();
      try {
        while (Date.now() < end) {
          const wallet = walletIds[Math.floor(Math.random() * walletIds.length)];
          await c.query('BEGIN');
          const { rows } = await c.query<{ balance: string }>('SELECT balance FROM balances WHERE id = $1 FOR UPDATE', [
            wallet,
          ]);
          await c.query(
            `INSERT INTO ledger_entries (balance_id, kind, amount, balance_after, ref_type, note)
             VALUES ($1, 'adjustment', 0.01, $2::numeric + 0.01, 'bench', 'chain cost')`,
            [wallet, rows[0].balance],
          );
          await c.query('UPDATE balances SET balance = balance + 0.01 WHERE id = $1', [wallet]);
          await c.query('COMMIT');
          done++;
        }
      } finally {
        c.release();
      }
    }),
  );
  return done / SECONDS;
}

const database = await benchDatabase(args['pg-url'], 'bench_chain');
const opened = await openDatabase({ url: database.url });
const pool = new pg.Pool({ connectionString: database.url, max: CONCURRENCY + 2 });
try {
  const customers = await createCustomers(opened.db, WALLETS);
  const walletIds = customers.map((c) => c.walletId);
  console.log(
    `Ledger chain cost: ${WALLETS} wallets, ${ROWS} entries per insert, ${CONCURRENCY} clients for ${SECONDS} s; ` +
      `${os.cpus().length} cores, load average at start ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
  );
  const insert: Record<'off' | 'on', number[]> = { off: [], on: [] };
  const tx: Record<'off' | 'on', number[]> = { off: [], on: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    for (const mode of ['off', 'on'] as const) {
      await setLedgerChain(opened.db, mode === 'on');
      const client = await pool.connect();
      try {
        insert[mode].push(await insertCost(client, walletIds));
      } finally {
        client.release();
      }
      tx[mode].push(await moneyPath(pool, walletIds));
      console.log(
        `round ${round} chain ${mode.padEnd(3)}: insert ${insert[mode].at(-1)?.toFixed(1)} µs/entry; money path ${tx[mode].at(-1)?.toFixed(0)} tx/s`,
      );
    }
  }
  const insertRatios = insert.on.map((on, i) => on / insert.off[i]);
  const txRatios = tx.on.map((on, i) => on / tx.off[i]);
  const extra = insert.on.map((on, i) => on - insert.off[i]);
  console.log(
    `insert: chain on / off per round ${insertRatios.map((r) => r.toFixed(2)).join(', ')}; median ${median(insertRatios).toFixed(2)}; ` +
      `the chain adds a median ${median(extra).toFixed(1)} µs of database time per ledger entry`,
  );
  console.log(
    `money path: tx/s chain on / off per round ${txRatios.map((r) => r.toFixed(2)).join(', ')}; median ${median(txRatios).toFixed(2)}`,
  );
} finally {
  await pool.end();
  await opened.close();
  await database.drop();
}
