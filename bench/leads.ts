/**
 * CRM lead lists at a broker's scale, on the real server (in this process, over inject so only the server's work is
 * timed): 1,000,000 leads across the groups, statuses, sources, agents and six months of sign-ups, then each list the
 * screens read (filtered by status and by registered date, searched, a deep page, an agent's own list) beside the same
 * page and count read straight from the database with bare SQL (the floor any server pays). p50 and p95 of each.
 *
 *   node --import tsx bench/leads.ts [--db=postgres|pglite] [--leads=1000000] [--runs=30]
 *                                    [--pg-url=postgres://postgres@127.0.0.1:5432/postgres]
 */
import { parseArgs } from 'node:util';
import { sql, type SQL } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app.ts';
import { boot } from '../apps/server/src/bootstrap.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { benchDatabase } from './pg-database.ts';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: process.env.BENCH_DB ?? 'postgres' },
    leads: { type: 'string', default: process.env.BENCH_LEADS ?? '1000000' },
    runs: { type: 'string', default: process.env.BENCH_RUNS ?? '30' },
    'pg-url': { type: 'string', default: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const LEADS = Number(args.leads);
const RUNS = Number(args.runs);

async function database(): Promise<{ url?: string; drop?: () => Promise<void> }> {
  return args.db === 'postgres' ? benchDatabase(args['pg-url'], 'bench_leads') : {};
}

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
async function timings(fn: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    times.push(ms(t0));
  }
  times.sort((a, b) => a - b);
  return {
    p50: times[Math.floor(times.length * 0.5)],
    p95: times[Math.min(times.length - 1, Math.ceil(times.length * 0.95) - 1)],
  };
}

const { url, drop } = await database();
const config = loadConfig({
  NODE_ENV: 'production',
  PORT: '0',
  SEED_DEMO: 'true',
  DEMO_ACTIVITY: 'false',
  LOG_LEVEL: 'silent',
  MARKET_FEED: 'false',
  ...(url ? { DATABASE_URL: url } : {}),
});
const { ctx, database: opened, risk } = await boot(config, { memory: !url });
const app = await buildApp({ ctx });
await app.ready();
try {
  const db = ctx.db;
  const idOf = async (email: string) =>
    ((await db.execute(sql`select id from users where email = ${email}`)) as unknown as { rows: Array<{ id: number }> })
      .rows[0].id;
  const agent = await idOf('agent@demo.test');
  const retention = await idOf('retention@demo.test');

  // A million leads: 55 % sales, 20 % retentions, 15 % archived, 10 % clients (no linked customer: the join stays
  // honest, the deposit lookups find nothing); 1 in 50 assigned to the demo agent; six months of sign-ups.
  const t0 = process.hrtime.bigint();
  for (let from = 1; from <= LEADS; from += 200_000) {
    const to = Math.min(LEADS, from + 199_999);
    await db.execute(sql`
      insert into leads (first_name, last_name, email, phone, country, city, lead_status, "group", source, agent_id, ret_id, created_at)
      select 'Lead' || g, (array['Smith','Garcia','Müller','Rossi','Dubois','Nowak','Silva','Tanaka'])[1 + g % 8],
             'lead' || g || '@mail.example.com', '+44 7700 ' || lpad((g % 1000000)::text, 6, '0'),
             (array['Spain','France','Germany','Italy','United Kingdom'])[1 + g % 5], 'City ' || (g % 300),
             (array['New','Contacted','Interested','Not Interested','Call Back','No Answer'])[1 + (g / 7) % 6],
             case when g % 20 < 11 then 'sales' when g % 20 < 15 then 'retentions' when g % 20 < 18 then 'archived' else 'clients' end,
             (array['manual','live','affiliate'])[1 + g % 3],
             case when g % 50 = 0 then ${agent}::int end,
             case when g % 20 between 11 and 14 and g % 40 < 20 then ${retention}::int end,
             now() - ((g % 180) || ' days')::interval - ((g % 86400) || ' seconds')::interval
        from generate_series(${from}::int, ${to}::int) g`);
  }
  // A table in steady state: autovacuum has set the visibility map, so counts can read the indexes alone.
  await db.execute(sql`vacuum analyze leads`);
  console.log(`leads bench on ${args.db}: ${LEADS.toLocaleString('en-US')} leads written in ${ms(t0).toFixed(0)} ms\n`);

  const signIn = async (email: string) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: 'Demo12345!' },
    });
    const set = res.headers['set-cookie'];
    return (Array.isArray(set) ? set : [set ?? '']).find((c) => c.startsWith('sid='))!.split(';')[0];
  };
  const cookies = { admin: await signIn('admin@demo.test'), agent: await signIn('agent@demo.test') };
  const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
  const deep = Math.floor((LEADS * 0.55) / 15 / 2);

  // The floor: the page (the same columns and joins a screen needs, minus notes and deposit lookups) and the count.
  const raw =
    (where: SQL, offset = 0) =>
    async () => {
      await db.execute(sql`select l.*, m.full_name, a.full_name, r.full_name from leads l
      left join users m on m.id = l.manager_id left join users a on a.id = l.agent_id left join users r on r.id = l.ret_id
      where l.deleted_at is null and ${where} order by l.id desc limit 15 offset ${offset}`);
      await db.execute(sql`select count(*) from leads l where l.deleted_at is null and ${where}`);
    };
  const cases: Array<[string, keyof typeof cookies, string, () => Promise<void>]> = [
    ['sales, all', 'admin', '/affiliate/leads/api/sales/All/all', raw(sql`l."group" = 'sales'`)],
    [
      'sales, status',
      'admin',
      '/affiliate/leads/api/sales/Not_Interested/all',
      raw(sql`l."group" = 'sales' and l.lead_status = 'Not Interested'`),
    ],
    [
      'sales, 7 days',
      'admin',
      `/affiliate/leads/api/sales/All/all/${day(7)}/${day(0)}`,
      raw(sql`l."group" = 'sales' and l.created_at >= ${day(7)}::date and l.created_at < ${day(-1)}::date`),
    ],
    [
      'sales, status+date',
      'admin',
      `/affiliate/leads/api/sales/Interested/manual/${day(30)}/${day(0)}`,
      raw(
        sql`l."group" = 'sales' and l.source = 'manual' and l.lead_status = 'Interested' and l.created_at >= ${day(30)}::date and l.created_at < ${day(-1)}::date`,
      ),
    ],
    [
      `sales, page ${deep}`,
      'admin',
      `/affiliate/leads/api/sales/All/all?page=${deep}`,
      raw(sql`l."group" = 'sales'`, (deep - 1) * 15),
    ],
    [
      'sales, search',
      'admin',
      '/affiliate/leads/api/sales/All/all?search=lead77777%40',
      raw(
        sql`l."group" = 'sales' and (coalesce(l.first_name, '') || ' ' || coalesce(l.last_name, '') || ' ' || coalesce(l.email, '') || ' ' || coalesce(l.phone, '') || ' ' || coalesce(l.reference, '')) ilike '%lead77777@%'`,
      ),
    ],
    [
      'retentions, status',
      'admin',
      '/affiliate/leads/api/retentions/Call_Back',
      raw(sql`l."group" = 'retentions' and l.lead_status = 'Call Back'`),
    ],
    ['archived, all', 'admin', '/affiliate/leads/api/archived/All', raw(sql`l."group" = 'archived'`)],
    [
      'clients, 30 days',
      'admin',
      `/affiliate/leads/api/clients/All/${day(30)}/${day(0)}`,
      raw(sql`l."group" = 'clients' and l.created_at >= ${day(30)}::date and l.created_at < ${day(-1)}::date`),
    ],
    [
      "agent's own sales",
      'agent',
      '/affiliate/leads/api/sales/All/all',
      raw(sql`l."group" = 'sales' and l.agent_id = ${agent}`),
    ],
    [
      'agent, search name',
      'agent',
      '/affiliate/leads/api/sales/All/all?search=Lead4250',
      raw(sql`l."group" = 'sales' and l.agent_id = ${agent} and l.first_name ilike '%Lead4250%'`),
    ],
  ];
  console.log(`lead lists, ${RUNS} runs each (ms):`);
  console.log(
    `  ${'list'.padEnd(22)} ${'server p50'.padStart(10)} ${'p95'.padStart(8)}   ${'raw SQL p50'.padStart(11)} ${'p95'.padStart(8)}   p95 ratio`,
  );
  for (const [label, who, path, floor] of cases) {
    const server = await timings(async () => {
      const res = await app.inject({ method: 'GET', url: `/api${path}`, headers: { cookie: cookies[who] } });
      if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
    });
    const bare = await timings(floor);
    console.log(
      `  ${label.padEnd(22)} ${server.p50.toFixed(1).padStart(10)} ${server.p95.toFixed(1).padStart(8)}   ${bare.p50.toFixed(1).padStart(11)} ${bare.p95.toFixed(1).padStart(8)}   ${(server.p95 / bare.p95).toFixed(2)}×`,
    );
  }
} finally {
  await risk.stop();
  await app.close();
  await opened.close();
  await drop?.();
}
