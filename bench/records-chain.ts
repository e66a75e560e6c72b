import { sql } from 'drizzle-orm';
import type { Db } from '../apps/server/src/db/client.ts';

/**
 * Switches the ledger's hash chain (migration 0027) off and on in a bench database, so one run measures the order
 * path with and without it. Off: the insert trigger disabled and the plain wallet index of before (new entries are
 * left unchained). On: every entry chained again in id order (as the migration did), the chain's unique index back
 * and the trigger enabled.
 */
export async function setLedgerChain(db: Db, on: boolean): Promise<void> {
  if (!on) {
    await db.execute(sql`ALTER TABLE ledger_entries DISABLE TRIGGER ledger_entries_chain`);
    await db.execute(sql`DROP INDEX IF EXISTS ledger_chain_idx`);
    await db.execute(sql`CREATE INDEX IF NOT EXISTS ledger_balance_idx ON ledger_entries (balance_id)`);
    return;
  }
  await db.execute(sql`ALTER TABLE ledger_entries DISABLE TRIGGER ledger_entries_append_only`);
  await db.execute(sql`
    DO $$
    DECLARE r ledger_entries; prev bytea; wallet int := NULL; seq bigint := 0;
    BEGIN
      FOR r IN SELECT * FROM ledger_entries ORDER BY balance_id, id LOOP
        IF wallet IS DISTINCT FROM r.balance_id THEN wallet := r.balance_id; prev := NULL; seq := 0; END IF;
        seq := seq + 1;
        r.chain_seq := seq;
        UPDATE ledger_entries SET chain_seq = seq, prev_hash = prev,
               hash = sha256(COALESCE(prev, ''::bytea) || convert_to(ledger_entry_body(r), 'UTF8'))
         WHERE id = r.id RETURNING hash INTO prev;
      END LOOP;
    END $$`);
  await db.execute(sql`ALTER TABLE ledger_entries ENABLE TRIGGER ledger_entries_append_only`);
  await db.execute(sql`DROP INDEX IF EXISTS ledger_balance_idx`);
  await db.execute(
    sql`CREATE UNIQUE INDEX IF NOT EXISTS ledger_chain_idx ON ledger_entries USING btree (balance_id, chain_seq)`,
  );
  await db.execute(sql`ALTER TABLE ledger_entries ENABLE TRIGGER ledger_entries_chain`);
}
