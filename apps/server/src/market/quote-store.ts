import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { instruments } from '../db/schema.ts';
import type { PriceBook } from './price-book.ts';

export const QUOTE_SAVE_MS = 10_000;

/** A PostgreSQL text array literal with every element quoted, so any instrument name survives. */
const textArray = (values: readonly string[]): string =>
  `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;

export interface QuoteStore {
  start(): void;
  /** Stops the timer and writes what is still unsaved. */
  stop(): Promise<void>;
  /** Writes the latest quote of every instrument that changed since the last save; returns how many. */
  save(): Promise<number>;
}

/**
 * Keeps instruments.bids/asks near the live prices, so after a restart the book (and the simulated feed) resumes
 * from the last prices instead of the seeded ones. One UPDATE per save for all changed instruments.
 */
export interface QuoteStoreOptions {
  db: DbOrTx;
  book: PriceBook;
  digitsOf: (name: string) => number | undefined;
  everyMs?: number;
  /** Where a failed timed save is reported (the names stay unsaved and go with the next save). */
  onError?: (err: unknown) => void;
}

export function createQuoteStore(opts: QuoteStoreOptions): QuoteStore {
  const { db, book } = opts;
  let dirty = new Set<string>();
  let unsubscribe: (() => void) | null = null;
  let timer: NodeJS.Timeout | null = null;
  let saving: Promise<number> = Promise.resolve(0);

  const saveOnce = async (): Promise<number> => {
    if (dirty.size === 0) return 0;
    const names = dirty;
    dirty = new Set();
    const rows: { name: string; bid: string; ask: string }[] = [];
    for (const name of names) {
      const q = book.get(name);
      const digits = opts.digitsOf(name);
      if (q && digits !== undefined) rows.push({ name, bid: q.bid.toFixed(digits), ask: q.ask.toFixed(digits) });
    }
    if (rows.length === 0) return 0;
    try {
      await db.execute(sql`
        update ${instruments} set bids = v.bid, asks = v.ask
        from unnest(
          ${textArray(rows.map((r) => r.name))}::text[],
          ${`{${rows.map((r) => r.bid).join(',')}}`}::numeric[],
          ${`{${rows.map((r) => r.ask).join(',')}}`}::numeric[]
        ) as v(name, bid, ask)
        where ${instruments.name} = v.name`);
    } catch (err) {
      for (const n of names) dirty.add(n);
      throw err;
    }
    return rows.length;
  };

  const save = (): Promise<number> => {
    // One save at a time: a slow write must not be overtaken by a newer one carrying older state.
    const next = saving.then(saveOnce, saveOnce);
    saving = next.catch(() => 0);
    return next;
  };

  return {
    save,
    start() {
      if (unsubscribe) return;
      unsubscribe = book.onTicks((quotes) => {
        for (const q of quotes) dirty.add(q.name);
      });
      timer = setInterval(() => void save().catch(opts.onError ?? console.error), opts.everyMs ?? QUOTE_SAVE_MS);
      timer.unref();
    },
    async stop() {
      unsubscribe?.();
      unsubscribe = null;
      if (timer) clearInterval(timer);
      timer = null;
      await save();
    },
  };
}
