/**
 * Customer 360 in the back-office benchmark (bench/backoffice.ts): the bench customers' figures, the customers list
 * sorted and filtered by them, and the risk engine's equity snapshots timed beside the bare UPDATE of the same rows.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { AppContext } from '../apps/server/src/context.ts';
import { EquitySnapshots, SNAPSHOT_BATCH, SNAPSHOT_MAX_ROWS } from '../apps/server/src/engine/equity-snapshots.ts';
import { RiskEngine } from '../apps/server/src/engine/risk-engine.ts';

type Db = AppContext['db'];
const rows = async <T>(db: Db, q: SQL) => ((await db.execute(q)) as unknown as { rows: T[] }).rows;

/**
 * KYC states (5 % pending, 5 % declined, 40 % approved, the rest none), sign-ins over three months (one in ten never)
 * and balances from 100 to 100,100. The first deposits are the bench's first approved deposits, as migration
 * 0025_customer_360 backfilled them (a tenth of the customers have none); the floating P/L comes from the product's
 * own snapshots of the bench's open orders. Written once per database; answers whether it wrote.
 */
export async function seedCustomer360(db: Db): Promise<boolean> {
  const [{ ftd }] = await rows<{ ftd: boolean }>(
    db,
    sql`select exists (select 1 from users where email like 'bench%@mail.example.com' and ftd_at is not null) as ftd`,
  );
  // Seeded after the migration ran, the bench's deposits have not set any first deposit yet.
  if (!ftd)
    await db.execute(sql`
      update users u set ftd_at = f.at, ftd_amount = f.amount, ftd_currency = f.currency
        from (select distinct on (user_id) user_id, coalesce(reviewed_at, created_at) as at, amount, currency
                from deposits where status = 'approved' order by user_id, coalesce(reviewed_at, created_at), id) f
       where u.id = f.user_id and u.email like 'bench%@mail.example.com'`);
  const [{ n }] = await rows<{ n: number }>(
    db,
    sql`select count(*)::int as n from users where email like 'bench%@mail.example.com' and kyc_status <> 'none'`,
  );
  const [{ m }] = await rows<{ m: number }>(
    db,
    sql`select count(*)::int as m from balances where main and balance = 100000 and user_id in (select id from users where email like 'bench%@mail.example.com')`,
  );
  if (n > 0 && m === 0) {
    if (!ftd) await db.execute(sql`vacuum analyze users`);
    return !ftd;
  }
  await db.execute(sql`
    update users set
      kyc_status = case when id % 20 = 0 then 'pending' when id % 20 = 1 then 'declined' when id % 20 < 10 then 'approved' else 'none' end,
      last_login_at = case when id % 10 = 0 then null else now() - ((id::bigint * 7919) % 7776000 || ' seconds')::interval end
    where email like 'bench%@mail.example.com'`);
  await db.execute(sql`
    update balances b set balance = 100 + (b.id::bigint * 7919) % 100000
      from users u where u.id = b.user_id and u.email like 'bench%@mail.example.com' and b.main and b.balance = 100000`);
  for (const table of ['users', 'balances']) await db.execute(sql.raw(`vacuum analyze ${table}`));
  return true;
}

/** A list case: label, who asks, path, aim (p95 ms) and the bare SQL of the same page. */
export type ListCase = [string, 'admin' | 'manager', string, number, (() => Promise<unknown>)?];

/**
 * The customers list sorted and filtered by the Customer 360 figures, each with the lists' aim (p95 ≤ 50 ms) and its
 * bare SQL: the page (customer, profile and main wallet joined, `ORDER BY … NULLS LAST`) and the whole count through
 * the same join, as the lead lists' bench reads its floor.
 */
export function customer360Cases(db: Db, day: (n: number) => string, manager: number): ListCase[] {
  const all = '/admin/customers/api/all';
  const equity = sql`(b.balance + b.floating_pl)`;
  const bare =
    (where: SQL, order: SQL, opts: { offset?: number; manager?: boolean } = {}) =>
    async () => {
      const scope = opts.manager
        ? sql`and exists (select 1 from user_profiles sp where sp.user_id = u.id and sp.manager_id = ${manager})`
        : sql``;
      await db.execute(sql`select u.*, p.phone, p.country, b.id, b.balance from users u
        left join user_profiles p on p.user_id = u.id left join balances b on b.user_id = u.id and b.main
        where u.role_id = 3 and u.deleted_at is null ${scope} and ${where} order by ${order} nulls last, u.id desc
        limit 15 offset ${opts.offset ?? 0}`);
      await db.execute(sql`select count(*) from users u left join balances b on b.user_id = u.id and b.main
        where u.role_id = 3 and u.deleted_at is null ${scope} and ${where}`);
    };
  const t = sql`true`;
  return [
    ['customers, by equity', 'admin', `${all}?sort=equity&dir=desc`, 50, bare(t, sql`${equity} desc`)],
    ['customers, by equity, ascending', 'admin', `${all}?sort=equity&dir=asc`, 50, bare(t, sql`${equity} asc`)],
    [
      'customers, by equity, page 100',
      'admin',
      `${all}?sort=equity&dir=desc&page=100`,
      50,
      bare(t, sql`${equity} desc`, { offset: 99 * 15 }),
    ],
    ['customers, by balance', 'admin', `${all}?sort=balance&dir=desc`, 50, bare(t, sql`b.balance desc`)],
    [
      'customers, KYC pending, by equity',
      'admin',
      `${all}?kyc=pending&sort=equity&dir=desc`,
      50,
      bare(sql`u.kyc_status = 'pending'`, sql`${equity} desc`),
    ],
    [
      'customers, KYC declined',
      'admin',
      `${all}?kyc=declined`,
      50,
      bare(sql`u.kyc_status = 'declined'`, sql`u.id desc`),
    ],
    ['customers, by KYC state', 'admin', `${all}?sort=kyc_status&dir=asc`, 50, bare(t, sql`u.kyc_status asc`)],
    ['customers, by first deposit', 'admin', `${all}?sort=ftd_at&dir=desc`, 50, bare(t, sql`u.ftd_at desc`)],
    ['customers, by FTD amount', 'admin', `${all}?sort=ftd_amount&dir=desc`, 50, bare(t, sql`u.ftd_amount desc`)],
    ['customers, no FTD', 'admin', `${all}?ftd=no`, 50, bare(sql`u.ftd_at is null`, sql`u.id desc`)],
    [
      'customers, FTD last 30 days',
      'admin',
      `${all}?ftdFrom=${day(30)}&ftdTo=${day(0)}&sort=ftd_at`,
      50,
      bare(sql`u.ftd_at >= ${day(30)}::date and u.ftd_at < ${day(-1)}::date`, sql`u.ftd_at desc`),
    ],
    [
      'customers, equity 10k-20k, by equity',
      'admin',
      `${all}?equityMin=10000&equityMax=20000&sort=equity`,
      50,
      bare(sql`${equity} between 10000 and 20000`, sql`${equity} desc`),
    ],
    ['customers, balance ≥ 90k', 'admin', `${all}?balanceMin=90000`, 50, bare(sql`b.balance >= 90000`, sql`u.id desc`)],
    ['customers, by last login', 'admin', `${all}?sort=last_login_at&dir=desc`, 50, bare(t, sql`u.last_login_at desc`)],
    ['customers, online first', 'admin', `${all}?sort=online`, 50, bare(t, sql`u.id desc`)],
    [
      'customers, manager, by equity',
      'manager',
      `${all}?sort=equity&dir=desc`,
      50,
      bare(t, sql`${equity} desc`, { manager: true }),
    ],
    [
      'customers, manager, KYC pending',
      'manager',
      `${all}?kyc=pending&sort=equity`,
      50,
      bare(sql`u.kyc_status = 'pending'`, sql`${equity} desc`, { manager: true }),
    ],
  ];
}

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * p) - 1)];

/**
 * The equity snapshots at the bench's scale: an engine holding one position on each bench customer's main wallet,
 * prices moved so every wallet's P/L changes, then passes of the product's writer (SNAPSHOT_MAX_ROWS wallets a pass,
 * SNAPSHOT_BATCH a statement) beside the bare UPDATE … FROM (VALUES …) of the same rows in one statement. Also the
 * pass that finds nothing to write: the event loop's share (a walk over the engine's wallet columns).
 */
export async function snapshotFigures(ctx: Pick<AppContext, 'db' | 'cluster'>, customers: number): Promise<void> {
  const { db } = ctx;
  const wallets = await rows<{ id: number; balance: string }>(
    db,
    sql`select b.id, b.balance from balances b join users u on u.id = b.user_id
         where b.main and u.email like 'bench%@mail.example.com' order by b.id limit ${customers}`,
  );
  const engine = new RiskEngine();
  wallets.forEach((w, i) => {
    engine.upsertWallet(w.id, { balance: Number(w.balance), stopoutPercent: null });
    engine.addPosition({
      orderId: i + 1,
      walletId: w.id,
      instrument: 0,
      side: i % 2 === 0 ? 'buy' : 'sell',
      openRate: 1.08,
      amount: 1000 + (i % 50) * 1000,
      spread: 0.2,
      convSlot: 0,
      margin: 10.8,
      takeProfit: null,
      stopLoss: null,
    });
  });
  const snapshots = new EquitySnapshots(engine, () => ctx);
  engine.tick(0, 1.0912, 1.0914);
  const passes: number[] = [];
  let written = 0;
  let statements = 0;
  for (let i = 0; written < wallets.length && i < Math.ceil(wallets.length / SNAPSHOT_MAX_ROWS) + 2; i++) {
    const p = await snapshots.pass();
    passes.push(p.ms);
    written += p.written;
    statements += p.statements;
  }
  const idle: number[] = [];
  for (let i = 0; i < 20; i++) idle.push((await snapshots.pass()).ms);
  // The bare statement: the same number of rows as a pass, one UPDATE … FROM (VALUES …), no lock clause, no CTE.
  const some = wallets.slice(0, SNAPSHOT_MAX_ROWS);
  const bare: number[] = [];
  for (let i = 0; i < 5; i++) {
    const values = sql.join(
      some.map((w, k) => sql`(${w.id}::int, ${(((k + i) % 2000) - 1000).toFixed(2)}::numeric)`),
      sql`, `,
    );
    const t0 = process.hrtime.bigint();
    await db.execute(sql`update balances b set floating_pl = v.pl from (values ${values}) v(id, pl) where b.id = v.id`);
    bare.push(ms(t0));
  }
  console.log(
    `\n  equity snapshots, ${wallets.length.toLocaleString('en-US')} wallets with a position, all moved:` +
      `\n    ${written.toLocaleString('en-US')} written in ${passes.length} passes of ≤ ${SNAPSHOT_MAX_ROWS.toLocaleString('en-US')} (${statements} statements of ≤ ${SNAPSHOT_BATCH}):` +
      ` pass p50 ${pct(passes, 0.5).toFixed(0)} ms, p95 ${pct(passes, 0.95).toFixed(0)} ms, ${((pct(passes, 0.5) * 1000) / SNAPSHOT_MAX_ROWS).toFixed(0)} µs a wallet` +
      `\n    bare UPDATE … FROM (VALUES …) of ${some.length.toLocaleString('en-US')} rows in one statement: p50 ${pct(bare, 0.5).toFixed(0)} ms` +
      `\n    a pass with nothing to write (the walk over the engine's wallets, on the event loop): p50 ${pct(idle, 0.5).toFixed(2)} ms, p95 ${pct(idle, 0.95).toFixed(2)} ms`,
  );
  await db.execute(sql`vacuum analyze balances`);
}
