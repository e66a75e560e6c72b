import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../src/db/client.ts';
import { isEmpty, seedBase, seedDemo } from '../src/db/seed/index.ts';

/**
 * The database every test app starts from: migrated from 0000 up and seeded with the demo accounts once per run
 * (global-setup.ts), then copied for each app instead of migrating and seeding again. On PGlite a copy of a closed
 * data folder (in memory-backed /dev/shm where there is one); on PostgreSQL `CREATE DATABASE … TEMPLATE`.
 * Only apps with the default seeding use it (SEED_DEMO=true, no demo activity); others start empty as before.
 */
export const TEMPLATE_ENV = {
  /** Folder of the run's PGlite template ("template") and of each app's copy. */
  root: 'SERVER_TEST_TEMPLATE_ROOT',
  /** Name of the run's template database on the TEST_DATABASE_URL server. */
  database: 'SERVER_TEST_TEMPLATE_DB',
} as const;

/** The seeding boot() does for a test app (SEED_DEMO=true; DEMO_ACTIVITY 'auto' is off under NODE_ENV=test). */
async function seedAsTestBoot(db: Awaited<ReturnType<typeof openDatabase>>['db']): Promise<void> {
  await seedBase(db);
  if (await isEmpty(db)) await seedDemo(db);
}

/** Whether an app started with these env overrides seeds exactly as the template was seeded. */
export function seedsAsTemplate(env: Record<string, string>): boolean {
  return !('SEED_DEMO' in env || 'DEMO_ACTIVITY' in env || 'DATA_DIR' in env || 'DATABASE_URL' in env);
}

function scratchRoot(): string {
  const shm = '/dev/shm';
  try {
    fs.accessSync(shm, fs.constants.W_OK);
    return shm;
  } catch {
    return os.tmpdir();
  }
}

export async function adminQuery(base: string, text: string): Promise<void> {
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}

export function databaseUrl(base: string, name: string): string {
  const u = new URL(base);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Builds the run's template; returns what removes it. */
export async function buildTemplate(): Promise<() => Promise<void>> {
  const base = process.env.TEST_DATABASE_URL;
  if (base) {
    const name = `tpl_${randomBytes(6).toString('hex')}`;
    await adminQuery(base, `create database ${name}`);
    const database = await openDatabase({ url: databaseUrl(base, name) });
    try {
      await seedAsTestBoot(database.db);
    } finally {
      await database.close();
    }
    process.env[TEMPLATE_ENV.database] = name;
    return () => adminQuery(base, `drop database if exists ${name} with (force)`);
  }
  const root = fs.mkdtempSync(path.join(scratchRoot(), 'server-tests-'));
  const database = await openDatabase({ dataDir: path.join(root, 'template') });
  try {
    await seedAsTestBoot(database.db);
  } finally {
    await database.close();
  }
  process.env[TEMPLATE_ENV.root] = root;
  return async () => fs.rmSync(root, { recursive: true, force: true });
}

/** A PGlite data folder copied from the run's template, or null without one (then the app uses memory). */
export function copyPgliteTemplate(): string | null {
  const root = process.env[TEMPLATE_ENV.root];
  if (!root || !fs.existsSync(path.join(root, 'template'))) return null;
  const dir = fs.mkdtempSync(path.join(root, 'app-'));
  fs.cpSync(path.join(root, 'template'), dir, { recursive: true });
  return dir;
}

/** The run's template database's name on PostgreSQL, if there is one. */
export const postgresTemplate = (): string | null => process.env[TEMPLATE_ENV.database] || null;
