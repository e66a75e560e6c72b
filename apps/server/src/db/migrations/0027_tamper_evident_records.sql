-- Tamper-evident records: every ledger entry (chained per wallet) and every audit row (one chain) carries the sha256
-- of its predecessor's hash and its own fields, set by an insert trigger in the writer's transaction. A row changed
-- or removed later breaks the chain at that row (GET /admin/records/verify, npm run verify-records); exported
-- checkpoints of the chain heads prove the tail was not rewritten either.
DROP INDEX "ledger_balance_idx";--> statement-breakpoint
ALTER TABLE "audit_logs" ADD COLUMN "chain_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_logs" ADD COLUMN "prev_hash" "bytea";--> statement-breakpoint
ALTER TABLE "audit_logs" ADD COLUMN "hash" "bytea";--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "chain_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "prev_hash" "bytea";--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "hash" "bytea";--> statement-breakpoint
-- The fields a hash covers, one text per row (NULL written as a mark of its own, times in UTC to the microsecond).
CREATE FUNCTION ledger_entry_body(e ledger_entries) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT concat_ws('|', e.id, e.balance_id, e.chain_seq, e.kind, e.amount::text, e.balance_after::text,
    COALESCE(e.ref_type, '∅'), COALESCE(e.ref_id::text, '∅'), COALESCE(e.actor_id::text, '∅'), COALESCE(e.note, '∅'),
    to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'))
$$;--> statement-breakpoint
CREATE FUNCTION audit_row_body(a audit_logs) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT concat_ws('|', a.id, a.chain_seq, COALESCE(a.actor_id::text, '∅'), COALESCE(a.target_user_id::text, '∅'),
    a.action, COALESCE(a.subject_type, '∅'), COALESCE(a.subject_id::text, '∅'), COALESCE(a.before::text, '∅'),
    COALESCE(a.after::text, '∅'), COALESCE(a.ip, '∅'), to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'))
$$;--> statement-breakpoint
-- The existing rows join their chains in id order.
ALTER TABLE "ledger_entries" DISABLE TRIGGER ledger_entries_append_only;--> statement-breakpoint
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
END $$;--> statement-breakpoint
ALTER TABLE "ledger_entries" ENABLE TRIGGER ledger_entries_append_only;--> statement-breakpoint
ALTER TABLE "audit_logs" DISABLE TRIGGER audit_logs_append_only;--> statement-breakpoint
DO $$
DECLARE r audit_logs; prev bytea; seq bigint := 0;
BEGIN
  FOR r IN SELECT * FROM audit_logs ORDER BY id LOOP
    seq := seq + 1;
    r.chain_seq := seq;
    UPDATE audit_logs SET chain_seq = seq, prev_hash = prev,
           hash = sha256(COALESCE(prev, ''::bytea) || convert_to(audit_row_body(r), 'UTF8'))
     WHERE id = r.id RETURNING hash INTO prev;
  END LOOP;
END $$;--> statement-breakpoint
ALTER TABLE "audit_logs" ENABLE TRIGGER audit_logs_append_only;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_chain_idx" ON "audit_logs" USING btree ("chain_seq");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_chain_idx" ON "ledger_entries" USING btree ("balance_id","chain_seq");--> statement-breakpoint
-- A wallet's entries are written under its row lock, so its chain has one writer at a time; the unique index refuses
-- a second link at the same place rather than let the chain fork.
CREATE FUNCTION ledger_entries_chain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE last_seq bigint; last_hash bytea;
BEGIN
  SELECT chain_seq, hash INTO last_seq, last_hash FROM ledger_entries
   WHERE balance_id = NEW.balance_id ORDER BY chain_seq DESC LIMIT 1;
  NEW.chain_seq := COALESCE(last_seq, 0) + 1;
  NEW.prev_hash := last_hash;
  NEW.hash := sha256(COALESCE(last_hash, ''::bytea) || convert_to(ledger_entry_body(NEW), 'UTF8'));
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER ledger_entries_chain BEFORE INSERT ON "ledger_entries" FOR EACH ROW EXECUTE FUNCTION ledger_entries_chain();--> statement-breakpoint
-- One chain for the audit trail: its writers take turns (a transaction lock), in the order they commit.
CREATE FUNCTION audit_logs_chain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE last_seq bigint; last_hash bytea;
BEGIN
  PERFORM pg_advisory_xact_lock(72616401);
  SELECT chain_seq, hash INTO last_seq, last_hash FROM audit_logs ORDER BY chain_seq DESC LIMIT 1;
  NEW.chain_seq := COALESCE(last_seq, 0) + 1;
  NEW.prev_hash := last_hash;
  NEW.hash := sha256(COALESCE(last_hash, ''::bytea) || convert_to(audit_row_body(NEW), 'UTF8'));
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER audit_logs_chain BEFORE INSERT ON "audit_logs" FOR EACH ROW EXECUTE FUNCTION audit_logs_chain();
