import type { Database } from '../src/db/client.ts';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import fs from 'node:fs';
import { and, desc, eq } from 'drizzle-orm';
import { balances, kycDocuments, ledgerEntries, mailOutbox, users } from '../src/db/schema.ts';
import { moveMoney } from '../src/modules/wallets/ledger.ts';
import { dec } from '@platform/domain';
import { loadConfig, type Config } from '../src/config.ts';
import { boot } from '../src/bootstrap.ts';
import { buildApp } from '../src/app.ts';
import type { AppContext } from '../src/context.ts';
import { DEMO_PASSWORD } from '../src/db/seed/index.ts';
import { adminQuery, copyPgliteTemplate, databaseUrl, postgresTemplate, seedsAsTemplate } from './template-db.ts';

export { DEMO_PASSWORD };

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  database: Database;
  close(): Promise<void>;
}

/**
 * A fresh app on a fresh database with the demo data: PGlite by default, or a new database on the PostgreSQL server
 * named by TEST_DATABASE_URL (the suite runs once on each in `npm test`). The database is a copy of the run's
 * migrated and seeded template (template-db.ts) when the app seeds as it was seeded, else built from empty.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  opts: { beforeReady?: (app: FastifyInstance) => Promise<void> | void } = {},
): Promise<TestApp> {
  const base = process.env.TEST_DATABASE_URL;
  const templated = seedsAsTemplate(env);
  let dbName: string | null = null;
  let url: string | undefined;
  let dataDir: string | null = null;
  if (base) {
    dbName = `t_${randomBytes(6).toString('hex')}`;
    const template = templated ? postgresTemplate() : null;
    await adminQuery(base, `create database ${dbName}${template ? ` template ${template}` : ''}`);
    url = databaseUrl(base, dbName);
  } else if (templated) dataDir = copyPgliteTemplate();
  const config: Config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    SEED_DEMO: 'true',
    LOG_LEVEL: 'silent',
    MARKET_HOURS: 'open',
    ...(url ? { DATABASE_URL: url } : {}),
    ...(dataDir ? { DATA_DIR: dataDir } : {}),
    ...env,
  });
  const { ctx, database, risk } = await boot(config, { memory: !url && !dataDir });
  const app = await buildApp({ ctx });
  await opts.beforeReady?.(app);
  await app.ready();
  return {
    app,
    ctx,
    database,
    async close() {
      await risk.stop();
      await app.close();
      await ctx.jobs.idle();
      await database.close();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
      if (base && dbName) await adminQuery(base, `drop database if exists ${dbName} with (force)`);
    },
  };
}

/** The session cookie header ("sid=…") of a response, for the next calls. */
export function cookieOf(res: LightMyRequestResponse): string {
  const set = res.headers['set-cookie'];
  const first = (Array.isArray(set) ? set : [set ?? '']).find((c) => c.startsWith('sid='));
  if (!first) throw new Error(`no session cookie in response ${res.statusCode}: ${res.body}`);
  return first.split(';')[0];
}

/** Signs in and returns the cookie header to send. */
export async function signIn(
  app: FastifyInstance,
  email: string,
  password = DEMO_PASSWORD,
  remoteAddress?: string,
): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress });
  if (res.statusCode !== 200) throw new Error(`sign-in of ${email} failed: ${res.statusCode} ${res.body}`);
  return cookieOf(res);
}

export const DEMO = {
  admin: 'admin@demo.test',
  manager: 'manager@demo.test',
  client: 'client@demo.test',
  affiliate: 'affiliate@demo.test',
  agent: 'agent@demo.test',
  retention: 'retention@demo.test',
} as const;

export const ROLE_EMAIL: Record<number, string> = {
  1: DEMO.admin,
  2: DEMO.manager,
  3: DEMO.client,
  4: DEMO.affiliate,
  5: DEMO.agent,
  6: DEMO.retention,
};

/**
 * Signs every role's demo account in and looks up the demo accounts' ids: into the caller's maps, which tests that
 * act as every role extend with accounts of their own.
 */
export async function signInDemoRoles(
  t: TestApp,
  cookies: Map<number | string, string>,
  ids: Record<string, number>,
): Promise<void> {
  for (const role of [1, 2, 3, 4, 5, 6]) cookies.set(role, await signIn(t.app, ROLE_EMAIL[role]));
  for (const [k, email] of Object.entries(DEMO))
    ids[k] = (await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0].id;
}

let customerSeq = 0;

/** Signs up a new customer through the API and marks the email verified; returns the email and user id. */
export async function newVerifiedCustomer(
  t: TestApp,
  prefix = 'customer',
): Promise<{ email: string; id: number; password: string }> {
  const email = `${prefix}${++customerSeq}-${randomBytes(3).toString('hex')}@example.test`;
  const password = 'Password123!';
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    payload: {
      fullName: 'Test Customer',
      email,
      password,
      passwordConfirmation: password,
      phone: '+44 20 7946 0999',
      birthDate: '1990-01-01',
      country: 'United Kingdom',
      city: 'London',
      address: '1 Street',
      postalCode: 'N1 1AA',
      currency: 'USD',
    },
  });
  if (res.statusCode >= 300) throw new Error(res.body);
  const [u] = await t.ctx.db
    .update(users)
    .set({ isEmailVerified: true })
    .where(eq(users.email, email))
    .returning({ id: users.id });
  return { email, id: u.id, password };
}

/** A tiny valid PNG (1×1), for uploads. */
export const PNG_BYTES = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

/** A multipart/form-data body for inject(): text fields and files (name → bytes). */
export function multipart(
  fields: Record<string, string>,
  files: Record<string, { data: Buffer; filename?: string; type?: string }> = {},
) {
  const boundary = `----test${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  for (const [k, f] of Object.entries(files)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${k}"; filename="${f.filename ?? 'file.png'}"\r\nContent-Type: ${f.type ?? 'image/png'}\r\n\r\n`,
      ),
    );
    parts.push(f.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Σ ledger of a wallet and its balance, as strings to compare. */
export async function ledgerAndBalance(t: TestApp, balanceId: number): Promise<{ ledger: string; balance: string }> {
  const { sql } = await import('drizzle-orm');
  const res = await t.ctx.db.execute(
    sql`select (select coalesce(sum(amount), 0)::numeric(20,8)::text from ledger_entries where balance_id = ${balanceId}) as ledger, (select balance::text from balances where id = ${balanceId}) as balance`,
  );
  const row = ((res as unknown as { rows: Array<{ ledger: string; balance: string }> }).rows ??
    (res as unknown as Array<{ ledger: string; balance: string }>))[0];
  return { ledger: row.ledger, balance: row.balance };
}

/**
 * Puts a wallet back to `amount` with no margin held, as tests do between cases. The ledger is append-only,
 * so the reset is itself an adjustment entry and balance = Σ ledger stays true.
 */
export async function resetWalletTo(t: TestApp, balanceId: number, amount: string): Promise<void> {
  await t.ctx.db.transaction(async (tx) => {
    const [w] = await tx
      .select({ balance: balances.balance })
      .from(balances)
      .where(eq(balances.id, balanceId))
      .for('update');
    await tx.update(balances).set({ balance: amount, margin: '0' }).where(eq(balances.id, balanceId));
    await tx.insert(ledgerEntries).values({
      balanceId,
      kind: 'adjustment',
      amount: dec(amount).minus(w.balance).toString(),
      balanceAfter: amount,
      note: 'test reset',
    });
  });
}

/**
 * Suites that test the HTTP layer (every route's access, its spellings, fuzzed input) and not the database run once
 * per `npm test`: on PostgreSQL when that run follows (scripts/test.mjs sets this for the PGlite run), else here.
 */
export const dbAgnosticElsewhere = process.env.DB_AGNOSTIC_ON_POSTGRES === '1';

/**
 * The token of the newest mail to `to` whose link goes to `path` (after the queued mail jobs ran). The outbox text
 * never holds the link; without SMTP it is kept apart for the (audited) admin read.
 */
export async function lastMailLink(t: TestApp, to: string, path: string): Promise<string> {
  await t.ctx.jobs.idle();
  const [m] = await t.ctx.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.to, to))
    .orderBy(desc(mailOutbox.id))
    .limit(1);
  const match = m?.secret?.match(new RegExp(`${path}\\?token=([\\w-]+)`));
  if (!match) throw new Error(`no ${path} link mailed to ${to}`);
  return match[1];
}

/** A verified customer with approved KYC and a real wallet funded through the ledger, signed in. */
export async function newFundedCustomer(t: TestApp, prefix: string, amount: string) {
  const c = await newVerifiedCustomer(t, prefix);
  await t.ctx.db.insert(kycDocuments).values({ userId: c.id, type: 'passport', status: 'approved' });
  const [w] = await t.ctx.db
    .select()
    .from(balances)
    .where(and(eq(balances.userId, c.id), eq(balances.mode, 'real')));
  await moveMoney(t.ctx.db, {
    balanceId: w.id,
    amount,
    kind: 'adjustment',
    refType: 'staff',
    refId: null,
    actorId: null,
    note: 'test funding',
  });
  return { ...c, wallet: w.id, cookie: await signIn(t.app, c.email, c.password) };
}
