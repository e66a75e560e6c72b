import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface BenchDatabase {
  url: string;
  name: string;
  /** Drops the database; a kept one (`keep`) is left for the next run. */
  drop: () => Promise<void>;
}

/**
 * A PostgreSQL database of its own for one benchmark run, on the server of `serverUrl`: a fresh one named
 * `{prefix}_{random}`, or with `keep` that name, created when missing and kept afterwards to reuse its data.
 */
export async function benchDatabase(serverUrl: string, prefix: string, keep?: string): Promise<BenchDatabase> {
  const kept = keep?.replace(/[^a-z0-9_]/g, '');
  const name = kept || `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
    if (!exists) await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    name,
    drop: async () => {
      if (kept) return;
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
