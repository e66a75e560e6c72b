import { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import type { Db } from './db-types.ts';

/**
 * Hand-written SQL for the few statements on the trading hot path (placing and closing orders). Building a query
 * through the ORM cost about half the server's CPU per order; these texts are fixed, so PostgreSQL parses and plans
 * each once per connection (a named statement) and the server only binds values. Rows come back with the
 * database's column names: NUMERIC as exact strings, timestamps as Dates, on both drivers.
 */
export interface Statements {
  rows<T>(statement: Statement, values: unknown[]): Promise<T[]>;
}

/** A named SQL text: one name always stands for exactly one text (PostgreSQL caches the plan under it). */
export interface Statement {
  name: string;
  text: string;
}

const runners = new WeakMap<Db, Statements>();

/** The runner over a PostgreSQL pool: each statement is prepared once per connection under its name. */
export function poolStatements(pool: pg.Pool): Statements {
  // Behind a transaction-pooling PgBouncer named statements need its prepared-statement support (1.21+).
  return {
    rows: async <T>(s: Statement, values: unknown[]) =>
      (await pool.query<T & pg.QueryResultRow>({ name: s.name, text: s.text, values })).rows,
  };
}

/** The runner over the embedded PGlite: one session in this process, where a name saves nothing. */
export function pgliteStatements(client: PGlite): Statements {
  return { rows: async <T>(s: Statement, values: unknown[]) => (await client.query<T>(s.text, values)).rows };
}

/** Set by openDatabase: the statements of a database run on their own pool (see client.ts). */
export function registerStatements(db: Db, runner: Statements): void {
  runners.set(db, runner);
}

export function statementsOf(db: Db): Statements {
  let runner = runners.get(db);
  if (runner) return runner;
  // A database not opened by openDatabase: run on its own client.
  const client = (db as unknown as { $client: pg.Pool | PGlite }).$client;
  runner = client instanceof PGlite ? pgliteStatements(client) : poolStatements(client);
  runners.set(db, runner);
  return runner;
}
