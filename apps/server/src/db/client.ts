import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.ts';
import { pgliteStatements, poolStatements, registerStatements } from './statements.ts';

import type { Db } from './db-types.ts';

export type { Db, DbOrTx, Tx } from './db-types.ts';

/** How the job queue (jobs/queue.ts) reaches the database: a URL for its own pool, or a function running SQL. */
export type QueueConnection =
  | { connectionString: string }
  | { db: { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> } };

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** How the job queue (pg-boss) reaches this database: its own small pool, or the embedded database's one connection. */
  queue: QueueConnection;
  /**
   * Runs `fn` holding the start-up lock: instances starting together on one PostgreSQL migrate, seed and create the
   * job queue's tables one at a time, and each finds done what another did. The embedded database has one instance.
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The advisory lock key of start-up work (cluster/leader.ts holds 727001 for leadership). */
const START_LOCK = 727_000;

const migrationsFolder = path.join(import.meta.dirname, 'migrations');

/** How many migrations this build ships: a database with fewer applied is not ready for it. */
export function shippedMigrations(): number {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  return journal.entries.length;
}

/** Opens PostgreSQL (with a URL) or the embedded PGlite (a folder, or memory when dataDir is null) and migrates it. */
export async function openDatabase(opts: { url?: string; dataDir?: string | null }): Promise<Database> {
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: 20 });
    // An idle connection can be ended by the server (restart, failover, an administrator). The pool discards it and
    // opens another on demand; without a listener node-postgres rethrows the error and the whole process exits.
    pool.on('error', (err) => console.error(`PostgreSQL connection lost (the pool replaces it): ${err.message}`));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    const exclusive = async <T>(fn: () => Promise<T>): Promise<T> => {
      const lock = await pool.connect();
      try {
        await lock.query('select pg_advisory_lock($1)', [START_LOCK]);
        return await fn();
      } finally {
        await lock.query('select pg_advisory_unlock($1)', [START_LOCK]).catch(() => undefined);
        lock.release();
      }
    };
    // Instances starting together migrate one at a time: the others wait for the lock, then find nothing to do.
    await exclusive(() => migratePg(db as never, { migrationsFolder }));
    // The hand-written hot statements (statements.ts) get a pool of their own whose sessions always reuse the plan
    // PostgreSQL made once. By default it re-plans a prepared statement on every run while a plan for the actual
    // values looks cheaper, which these statements' optional conditions always do: about a fifth of the database's
    // CPU per order. They look rows up by key only, where the generic plan is the right one. The ORM's ad-hoc queries
    // keep the default on the main pool.
    const hotPool = new pg.Pool({
      connectionString: opts.url,
      max: 20,
      options: '-c plan_cache_mode=force_generic_plan',
    });
    hotPool.on('error', (err) => console.error(`PostgreSQL connection lost (the pool replaces it): ${err.message}`));
    registerStatements(db, poolStatements(hotPool));
    return {
      db,
      kind: 'postgres',
      queue: { connectionString: opts.url },
      exclusive,
      close: async () => void (await Promise.all([pool.end(), hotPool.end()])),
    };
  }
  let client: PGlite;
  // Trigram indexes (pg_trgm) make "contains" searches over large lists use an index (CRM leads).
  const extensions = { pg_trgm };
  if (opts.dataDir) {
    fs.mkdirSync(opts.dataDir, { recursive: true });
    client = await PGlite.create(path.join(opts.dataDir, 'pg'), { extensions });
  } else {
    client = await PGlite.create({ extensions });
  }
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await migratePglite(db as never, { migrationsFolder });
  registerStatements(db, pgliteStatements(client));
  // PGlite runs one statement list at a time: parameterless text may hold several statements (the queue's own schema).
  const executeSql = async (text: string, values?: unknown[]) =>
    values && values.length > 0 ? client.query(text, values) : { rows: (await client.exec(text)).at(-1)?.rows ?? [] };
  return {
    db,
    kind: 'pglite',
    queue: { db: { executeSql } },
    exclusive: (fn) => fn(),
    close: () => client.close(),
  };
}
