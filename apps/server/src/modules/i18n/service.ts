import { asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { languages, missingTranslations, translations } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { tellPeers } from '../../cluster/peers.ts';

/**
 * In-memory cache of each language's translations. Every page load fetches them, so they are read from the
 * database once per language and kept until invalidateTranslations() is called by whoever edits them.
 * With several server instances an edit clears the other instances' copies through the cluster bus; entries also
 * expire after a TTL, should a message be lost.
 */
const TTL_MS = 60_000;

interface Entry<T> {
  value: T;
  stamp: string;
  expiresAt: number;
}
interface DbCache {
  /** The known language codes; caching it keeps lookups of unknown codes from reaching the database. */
  codes?: Entry<Set<string>>;
  byCode: Map<string, Entry<Record<string, string>>>;
}

// Keyed by database handle so separate apps in one process (tests, tools) never share entries.
const caches = new WeakMap<object, DbCache>();
// Generations instead of deletes: a load that started before an invalidation carries the older stamp, so its
// result is never taken as fresh even when it lands after the invalidation.
let allGeneration = 0;
const codeGeneration = new Map<string, number>();
/** Bumped by every invalidation: the language list is reloaded after any edit (e.g. a language just added). */
let anyGeneration = 0;

const stampOf = (code: string): string => `${allGeneration}:${codeGeneration.get(code) ?? 0}`;

function cacheOf(db: DbOrTx): DbCache {
  let c = caches.get(db);
  if (!c) {
    c = { byCode: new Map() };
    caches.set(db, c);
  }
  return c;
}

const fresh = <T>(e: Entry<T> | undefined, stamp: string): e is Entry<T> =>
  !!e && e.stamp === stamp && e.expiresAt > Date.now();

/** Drops the cached translations of one language (after editing its texts) or of all (no code), and the language list. */
export function invalidateTranslations(code?: string): void {
  invalidateTranslationsHere(code);
  tellPeers({ kind: 'translations', code });
}

/** The same for this instance only (a peer's message). */
export function invalidateTranslationsHere(code?: string): void {
  anyGeneration++;
  if (code === undefined) allGeneration++;
  else codeGeneration.set(code, (codeGeneration.get(code) ?? 0) + 1);
}

async function languageCodes(db: DbOrTx): Promise<Set<string>> {
  const c = cacheOf(db);
  const stamp = `${anyGeneration}`;
  if (fresh(c.codes, stamp)) return c.codes.value;
  const rows = await db.select({ code: languages.code }).from(languages);
  const value = new Set(rows.map((r) => r.code));
  c.codes = { value, stamp, expiresAt: Date.now() + TTL_MS };
  return value;
}

/** GET /translations/{lng}: the language's texts as one flat object; 404 for a code that is not a language. */
export async function getTranslations(db: DbOrTx, code: string): Promise<Record<string, string>> {
  if (!(await languageCodes(db)).has(code)) throw new AppError('LANGUAGE_NOT_FOUND');
  const c = cacheOf(db);
  const stamp = stampOf(code);
  const hit = c.byCode.get(code);
  if (fresh(hit, stamp)) return hit.value;
  const rows = await db
    .select({ key: translations.key, value: translations.value })
    .from(translations)
    .where(eq(translations.code, code))
    .orderBy(asc(translations.id));
  // No prototype: a key such as "__proto__" stays an ordinary entry.
  const value: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const r of rows) value[r.key] = r.value;
  c.byCode.set(code, { value, stamp, expiresAt: Date.now() + TTL_MS });
  return value;
}

/**
 * POST /translations/{lng}: records a key the web app did not find, counting repeats. A single upsert keeps
 * concurrent reports of the same key to one row. Keys the language already has are not recorded: the
 * reporting browser only held an older copy.
 */
export async function reportMissing(db: DbOrTx, code: string, key: string): Promise<void> {
  const known = await getTranslations(db, code);
  if (Object.hasOwn(known, key)) return;
  await db
    .insert(missingTranslations)
    .values({ code, key })
    .onConflictDoUpdate({
      target: [missingTranslations.code, missingTranslations.key],
      set: { hits: sql`${missingTranslations.hits} + 1`, lastSeenAt: new Date() },
    });
}
