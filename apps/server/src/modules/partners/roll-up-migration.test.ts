import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { Db } from '../../db/client.ts';
import { adminQuery, databaseUrl } from '../../../test/template-db.ts';
import { expectRollUpsMatchDetail } from './days-testing.ts';

/**
 * Migration 0038 on a database that drifted under 0037 (commissions written by an instance that did not add them to
 * the roll-ups, a roll-up row of nothing): it derives both tables from the commission rows again, and from then on the
 * trigger keeps them. On PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */

const migrations = path.join(import.meta.dirname, '../../db/migrations');
const BEFORE = '0037_partner_traders';

let db: Db;
let migrate: (folder: string) => Promise<void>;
let close: () => Promise<void>;
let upTo0037: string;

const rowsOf = <T>(r: unknown): T[] => (r as { rows: T[] }).rows;
const one = async <T>(q: SQL) => rowsOf<T>(await db.execute(q))[0];

beforeAll(async () => {
  // The migrations folder as it was before 0038: the same files, the journal cut after 0037.
  upTo0037 = fs.mkdtempSync(path.join(os.tmpdir(), 'migrations-0037-'));
  fs.cpSync(migrations, upTo0037, { recursive: true });
  const journalPath = path.join(upTo0037, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalPath, 'utf8')) as { entries: Array<{ tag: string }> };
  journal.entries = journal.entries.slice(0, journal.entries.findIndex((e) => e.tag === BEFORE) + 1);
  fs.writeFileSync(journalPath, JSON.stringify(journal));
  const base = process.env.TEST_DATABASE_URL;
  if (base) {
    const name = `m_${randomBytes(6).toString('hex')}`;
    await adminQuery(base, `create database ${name}`);
    const pool = new pg.Pool({ connectionString: databaseUrl(base, name), max: 2 });
    db = drizzlePg(pool) as unknown as Db;
    migrate = (folder) => migratePg(db as never, { migrationsFolder: folder });
    close = async () => {
      await pool.end();
      await adminQuery(base, `drop database if exists ${name} with (force)`);
    };
  } else {
    const client = await PGlite.create({ extensions: { pg_trgm } });
    db = drizzlePglite(client) as unknown as Db;
    migrate = (folder) => migratePglite(db as never, { migrationsFolder: folder });
    close = () => client.close();
  }
}, 120_000);
afterAll(async () => {
  await close?.();
  if (upTo0037) fs.rmSync(upTo0037, { recursive: true, force: true });
});

describe('migration 0038: the roll-ups kept by the database', () => {
  it('derives both tables again from the commission rows, then keeps them by its trigger', async () => {
    await migrate(upTo0037);
    const user = (name: string, role: number) =>
      one<{ id: number }>(sql`
        insert into users (full_name, email, password_hash, role_id, is_email_verified)
        values (${name}, ${`${name}@migration.test`}, 'x', ${role}, true) returning id`);
    const partner = (await user('partner', 4)).id;
    const client = (await user('client', 3)).id;
    const plan = await one<{ id: number }>(sql`insert into partner_plans (name) values ('IB') returning id`);
    const version = await one<{ id: number }>(sql`
      insert into partner_plan_versions (plan_id, effective_from, name, currency, per_lot, spread_share, commission_share,
                                         cpa, cpa_min_deposit, levels)
      values (${plan.id}, to_timestamp(0), 'IB', 'USD', '{"forex":"10"}', 0, 0, 0, 0, '["100"]') returning id`);
    const wallet = await one<{ id: number }>(
      sql`insert into balances (user_id, mode, currency) values (${partner}, 'real', 'USD') returning id`,
    );
    const commission = (deal: number, at: string) => sql`
      insert into partner_commissions (kind, deal_id, customer_id, level, partner_id, plan_version_id, balance_id,
                                       instrument, lots, base, amount, currency, accrued_at)
      values ('trade', ${deal}, ${client}, 1, ${partner}, ${version.id}, ${wallet.id}, 'EUR_USD', 0.5, 10, 10, 'USD',
              ${at}::timestamptz)`;
    // Under 0037: two deals written without their roll-ups (older code), a day of nothing and a wrong first deal.
    await db.execute(commission(1, '2026-05-01T10:00:00Z'));
    await db.execute(commission(2, '2026-05-02T10:00:00Z'));
    await db.execute(sql`
      insert into partner_commission_days (partner_id, day, currency, amount, lots, entries)
      values (${partner}, '2026-04-30', 'USD', 99, 1, 3)`);
    await db.execute(sql`
      insert into partner_traders (partner_id, customer_id, first_at, last_at)
      values (${partner}, ${client}, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`);
    await expect(expectRollUpsMatchDetail(db)).rejects.toThrow();

    await migrate(migrations);
    await expectRollUpsMatchDetail(db);
    expect(
      rowsOf(
        await db.execute(
          sql`select to_char(day, 'YYYY-MM-DD') as day, entries from partner_commission_days order by day`,
        ),
      ),
    ).toEqual([
      { day: '2026-05-01', entries: 1 },
      { day: '2026-05-02', entries: 1 },
    ]);
    await db.execute(commission(3, '2026-05-02T18:00:00Z'));
    await expectRollUpsMatchDetail(db);
    expect(await one(sql`select entries, lots::text from partner_commission_days where day = '2026-05-02'`)).toEqual({
      entries: 2,
      lots: '1.00000000',
    });
  });
});
