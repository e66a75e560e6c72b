/**
 * Money lists and money writes at a broker's scale, on the real server (in this process, over inject so only the
 * server's work is timed): the staff's deposit history with 100,000 deposits (first page, a deep page, a search by
 * email) beside the same page read straight from the database with one SQL statement (the floor any server pays),
 * and withdrawal requests from many customers at once beside the bare conditional UPDATE that holds the money.
 *
 *   node --import tsx bench/money.ts [--db=pglite|postgres] [--deposits=100000] [--requests=2000]
 *                                    [--pg-url=postgres://postgres@127.0.0.1:5432/postgres]
 */
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app.ts';
import { boot } from '../apps/server/src/bootstrap.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { balances, kycDocuments, users } from '../apps/server/src/db/schema.ts';
import { hashPassword } from '../apps/server/src/lib/crypto.ts';
import { benchDatabase } from './pg-database.ts';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: process.env.BENCH_DB ?? 'pglite' },
    deposits: { type: 'string', default: process.env.BENCH_DEPOSITS ?? '100000' },
    requests: { type: 'string', default: process.env.BENCH_REQUESTS ?? '2000' },
    'pg-url': { type: 'string', default: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const DEPOSITS = Number(args.deposits);
const REQUESTS = Number(args.requests);
const CUSTOMERS = 200;

async function database(): Promise<{ url?: string; drop?: () => Promise<void> }> {
  return args.db === 'postgres' ? benchDatabase(args['pg-url'], 'bench_money') : {};
}

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
async function median(runs: number, fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    times.push(ms(t0));
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

const { url, drop } = await database();
const config = loadConfig({
  NODE_ENV: 'production',
  PORT: '0',
  SEED_DEMO: 'true',
  LOG_LEVEL: 'silent',
  MARKET_FEED: 'false',
  ...(url ? { DATABASE_URL: url } : {}),
});
const { ctx, database: opened, risk } = await boot(config, { memory: !url });
const app = await buildApp({ ctx });
await app.ready();
try {
  const db = ctx.db;
  // Customers with KYC and funded real wallets, each with a session.
  const hash = await hashPassword('Bench12345!');
  const created = await db
    .insert(users)
    .values(
      Array.from({ length: CUSTOMERS }, (_, i) => ({
        fullName: `Bench ${i}`,
        email: `bench${i}@money.test`,
        passwordHash: hash,
        roleId: 3,
        isEmailVerified: true,
      })),
    )
    .returning({ id: users.id });
  await db.insert(kycDocuments).values(created.map((u) => ({ userId: u.id, type: 'passport', status: 'approved' })));
  const wallets = await db
    .insert(balances)
    .values(created.map((u) => ({ userId: u.id, mode: 'real', currency: 'USD', balance: '1000000' })))
    .returning({ id: balances.id, userId: balances.userId });
  await db.execute(
    sql`insert into ledger_entries (balance_id, kind, amount, balance_after, note) select id, 'seed', balance, balance, 'bench funding' from balances where id = any(${`{${wallets.map((w) => w.id).join(',')}}`}::int[])`,
  );

  // 100,000 deposits spread over them, in every state.
  const t0 = process.hrtime.bigint();
  await db.execute(sql`
    insert into deposits (user_id, balance_id, gateway, amount, fee, total, currency, status, reference, created_at)
    select b.user_id, b.id, (array['bank','btc','usdt','sandbox'])[1 + g % 4], 100 + g % 900, 0, 100 + g % 900, 'USD',
           (array['pending','approved','declined'])[1 + g % 3], 'dp_bench' || g, now() - (g || ' seconds')::interval
      from generate_series(1, ${DEPOSITS}) g
      join (select id, user_id, row_number() over (order by id) - 1 as n from balances where id = any(${`{${wallets.map((w) => w.id).join(',')}}`}::int[])) b
        on b.n = g % ${CUSTOMERS}`);
  console.log(
    `money bench on ${args.db}: ${DEPOSITS.toLocaleString('en-US')} deposits written in ${ms(t0).toFixed(0)} ms`,
  );

  const signIn = async (email: string, password: string) => {
    const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    const set = res.headers['set-cookie'];
    return (Array.isArray(set) ? set : [set ?? '']).find((c) => c.startsWith('sid='))!.split(';')[0];
  };
  const admin = await signIn('admin@demo.test', 'Demo12345!');
  const list = (q: string) =>
    app.inject({ method: 'GET', url: `/api/admin/deposits/api/history?${q}`, headers: { cookie: admin } });
  const deepPage = Math.floor(DEPOSITS / 15 / 2);

  // The floor: the same page and count as one statement each, straight to the database.
  const raw = (offset: number, search?: string) => async () => {
    const where = search
      ? sql`where (d.user_id in (select id from users where email ilike ${`%${search}%`} or full_name ilike ${`%${search}%`}) or d.reference = ${search})`
      : sql``;
    await db.execute(
      sql`select d.*, b.currency, u.email from deposits d join balances b on b.id = d.balance_id join users u on u.id = d.user_id ${where} order by d.id desc limit 15 offset ${offset}`,
    );
    await db.execute(sql`select count(*) from deposits d join users u on u.id = d.user_id ${where}`);
  };
  const rows: Array<[string, number, number]> = [];
  for (const [label, q, floor] of [
    ['first page', 'page=1&limit=15', raw(0)],
    [`page ${deepPage}`, `page=${deepPage}&limit=15`, raw((deepPage - 1) * 15)],
    ['search by email', 'page=1&limit=15&search=bench17%40', raw(0, 'bench17@')],
  ] as const) {
    await list(q);
    const server = await median(15, async () => {
      const res = await list(q);
      if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
    });
    rows.push([label, server, await median(15, floor)]);
  }
  console.log('\nGET /api/admin/deposits/api/history (median of 15):');
  for (const [label, server, floor] of rows)
    console.log(
      `  ${label.padEnd(18)} ${server.toFixed(1).padStart(8)} ms   raw SQL ${floor.toFixed(1).padStart(8)} ms   ratio ${(server / floor).toFixed(2)}×`,
    );

  // Withdrawal requests from every customer at once, beside the bare conditional UPDATE of the hold.
  const cookies = await Promise.all(created.slice(0, 50).map((_, i) => signIn(`bench${i}@money.test`, 'Bench12345!')));
  const byUser = new Map(wallets.map((w) => [w.userId, w.id]));
  const body = (i: number) => ({
    balance_id: byUser.get(created[i % cookies.length].id)!,
    amount: '1',
    bank_name: 'Bench Bank',
    account_name: 'x',
    account_number: '12345678',
    swift_code: 'BENCHGB2L',
    bank_country: 'United Kingdom',
  });
  let t1 = process.hrtime.bigint();
  const results = await Promise.all(
    Array.from({ length: REQUESTS }, (_, i) =>
      app.inject({
        method: 'POST',
        url: '/api/withdraws/bank',
        headers: { cookie: cookies[i % cookies.length] },
        payload: body(i),
      }),
    ),
  );
  const serverMs = ms(t1);
  if (results.some((r) => r.statusCode !== 200))
    throw new Error(`withdrawal refused: ${results.find((r) => r.statusCode !== 200)!.body}`);
  // The floor: the same three writes of a request (the request row, the held balance, its ledger entry) in one
  // transaction each, with no HTTP, session, validation or notification around them.
  t1 = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: REQUESTS }, (_, i) =>
      db.transaction(async (tx) => {
        const b = body(i);
        const [w] = (
          (await tx.execute(sql`insert into withdrawals (user_id, balance_id, amount, fee, total, currency, bank_name, account_name, account_number, swift_code, bank_country, balance_after)
          select user_id, id, 1, 0, 1, currency, 'Bench Bank', 'x', '12345678', 'BENCHGB2L', 'United Kingdom', 0 from balances where id = ${b.balance_id} returning id`)) as unknown as {
            rows: Array<{ id: number }>;
          }
        ).rows;
        await tx.execute(sql`with moved as (update balances set balance = balance - 1 where id = ${b.balance_id} and balance - margin >= 1 returning id, balance)
          insert into ledger_entries (balance_id, kind, amount, balance_after, ref_type, ref_id) select id, 'withdrawal_hold', -1, balance, 'withdrawal', ${w.id} from moved`);
      }),
    ),
  );
  const rawMs = ms(t1);
  console.log(`\nPOST /api/withdraws/bank, ${REQUESTS} at once from ${cookies.length} customers:`);
  console.log(
    `  server ${(REQUESTS / (serverMs / 1000)).toFixed(0).padStart(6)} requests/s   bare SQL transaction ${(REQUESTS / (rawMs / 1000)).toFixed(0).padStart(6)} /s   ratio ${(serverMs / rawMs).toFixed(2)}×`,
  );

  // Money stays exact: every wallet equals its ledger.
  const off = await db.execute(
    sql`select count(*)::int as n from balances b where b.balance <> (select coalesce(sum(amount), 0) from ledger_entries l where l.balance_id = b.id) and b.id = any(${`{${wallets.map((w) => w.id).join(',')}}`}::int[])`,
  );
  const n = ((off as unknown as { rows?: Array<{ n: number }> }).rows ?? (off as unknown as Array<{ n: number }>))[0].n;
  console.log(`\nwallets whose balance differs from their ledger: ${n}`);
  if (n !== 0) process.exitCode = 1;
} finally {
  await risk.stop();
  await app.close();
  await opened.close();
  await drop?.();
}
