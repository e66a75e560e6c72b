import { ilike, lt, or, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { PageMeta } from '@platform/domain';

/** The page and size of a list request (any list query carries them). */
type PageOf = { page: number; limit: number };

/** Escapes LIKE wildcards so a search for "50%" or "a_b" matches those characters literally. */
export const escapeLike = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Case-insensitive "contains" over several columns; undefined (no filter) for a blank search. */
export function searchAny(search: string | undefined, columns: readonly AnyPgColumn[]): SQL | undefined {
  const s = search?.trim();
  if (!s) return undefined;
  const pattern = `%${escapeLike(s)}%`;
  return or(...columns.map((c) => ilike(c, pattern)));
}

export const offsetOf = (q: PageOf): number => (q.page - 1) * q.limit;

/**
 * Lists that grow to millions (trades, customers) count at most this many rows past the page shown: counting a
 * million rows on every page view would cost more than the page. Beyond it, the total says "at least".
 */
export const COUNT_WINDOW = 10_000;

/** The most rows such a list counts for this page: everything up to the page, and the window after it. */
export const countBound = (q: PageOf): number => offsetOf(q) + q.limit + COUNT_WINDOW;

/** The page's meta; with a bound, a count that reached it is marked as a lower bound (`total_capped`). */
export const pageMeta = (q: PageOf, total: number, bound?: number): PageMeta => ({
  total,
  per_page: q.limit,
  page: q.page,
  ...(bound !== undefined && total >= bound ? { total_capped: true } : {}),
});

/**
 * How an export walks a long list (lib/csv-export.ts): each batch takes the rows below the last id it wrote (these
 * lists run newest first, by id) with no offset and no count, so a million-row export reads each row once instead of
 * walking past every earlier page again and counting them. Never set from a request.
 */
export interface Walk {
  before?: number;
  uncounted?: boolean;
}

/** The walk's condition on the list's id column (none on a screen's page). */
export const walkFrom = (q: Walk, id: AnyPgColumn): SQL | undefined =>
  q.before !== undefined ? lt(id, q.before) : undefined;

/** Rows to skip: the page's offset on a screen, none when walking from a cursor. */
export const walkOffset = (q: PageOf & Walk): number => (q.before !== undefined ? 0 : offsetOf(q));

/** The capped count of a screen's page, or nothing for an export (which needs no total). */
export const countUnlessWalking = (
  q: Walk,
  counted: () => Promise<Array<{ n: number }>>,
): Promise<Array<{ n: number }>> => (q.uncounted ? Promise.resolve([{ n: 0 }]) : counted());
