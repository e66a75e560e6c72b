-- why: the rollover writes an entry per position, a million a day; a trigger call per entry (a read of the wallet's last
-- link, then the hash) was a fifth of its batch. A batch now reads each wallet's last link once, under the wallet's
-- lock, and links the wallet's new entries in order in the same statement (docs/decisions.md, "The rollover",
-- through the ledger). Every other writer keeps the trigger. GET /admin/records/verify checks both alike.
--
-- The fields a hash covers, from values: a batch hashes an entry before its row exists. The row's own text (migration
-- 0027) calls it, so the two cannot drift apart. STABLE, as to_char is: the planner then inlines both into the query
-- that calls them instead of running each as a function of its own per row.
CREATE FUNCTION ledger_entry_text(id bigint, balance_id integer, chain_seq bigint, kind text, amount numeric,
    balance_after numeric, ref_type text, ref_id integer, actor_id integer, note text, created_at timestamptz)
  RETURNS text LANGUAGE sql STABLE AS $$
  SELECT concat_ws('|', id, balance_id, chain_seq, kind, amount::text, balance_after::text, COALESCE(ref_type, '∅'),
    COALESCE(ref_id::text, '∅'), COALESCE(actor_id::text, '∅'), COALESCE(note, '∅'),
    to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'))
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION ledger_entry_body(e ledger_entries) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT ledger_entry_text(e.id, e.balance_id, e.chain_seq, e.kind, e.amount, e.balance_after, e.ref_type, e.ref_id,
    e.actor_id, e.note, e.created_at)
$$;--> statement-breakpoint
-- The wallets' last links, one query for a batch's wallets. VOLATILE, so the query takes a snapshot of its own: called
-- once the wallets' rows are locked, it sees every entry committed before, as the trigger does, even when the calling
-- statement began earlier.
CREATE FUNCTION ledger_chain_heads(wallets integer[])
  RETURNS TABLE (balance_id integer, chain_seq bigint, hash bytea) LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  RETURN QUERY
    SELECT w.id, h.chain_seq, h.hash FROM unnest(wallets) AS w(id)
      LEFT JOIN LATERAL (SELECT e.chain_seq, e.hash FROM ledger_entries e WHERE e.balance_id = w.id
                          ORDER BY e.chain_seq DESC LIMIT 1) h ON true;
END $$;--> statement-breakpoint
-- The links of a wallet's entries in order, as a running aggregate: the first hashes onto the wallet's last link
-- (head), each next one onto the one before.
CREATE FUNCTION ledger_link_step(prev bytea, head bytea, body text) RETURNS bytea LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN sha256(COALESCE(prev, head, ''::bytea) || convert_to(body, 'UTF8'));
END $$;--> statement-breakpoint
CREATE AGGREGATE ledger_link(bytea, text) (SFUNC = ledger_link_step, STYPE = bytea);--> statement-breakpoint
-- An insert that brings its links (the rollover's batch) skips the trigger; the unique (wallet, place) index still
-- refuses a fork, and the verification recomputes every link whoever wrote it.
DROP TRIGGER ledger_entries_chain ON ledger_entries;--> statement-breakpoint
CREATE TRIGGER ledger_entries_chain BEFORE INSERT ON ledger_entries FOR EACH ROW WHEN (NEW.hash IS NULL)
  EXECUTE FUNCTION ledger_entries_chain();
