-- why: the partners' daily roll-up (partner_commission_days) and clients' first and last deals (partner_traders) are
-- kept by the database itself, whatever code writes partner_commissions: an instance still on older code during a
-- rolling deploy, the accrual, the CPA, the reversal of a voided deal, or SQL by hand. One AFTER INSERT statement
-- trigger reads the statement's inserted rows (a transition table) and makes one upsert into each table, so a batch of
-- 1,000 commission rows costs two upserts, not 1,000. Commission rows are never changed nor deleted (reversals are rows
-- of their own): the database now refuses it, as for the ledger, so inserts are all the roll-ups have to follow.
-- Both tables take writes only from that trigger: an instance on the code that added to them itself (0036, 0037) has
-- its own upserts skipped while it is being replaced, so no row is counted twice. Both are derived again from the
-- commission rows here, in case they drifted already.
--
-- Nothing inserts commissions between the derivation and the triggers: the lock waits for the transactions writing
-- them and holds back new ones until this migration commits, when they run with the triggers in place.
LOCK TABLE "partner_commissions", "partner_commission_days", "partner_traders" IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
DELETE FROM "partner_commission_days";--> statement-breakpoint
INSERT INTO "partner_commission_days" ("partner_id", "day", "currency", "amount", "lots", "entries")
SELECT "partner_id", ("accrued_at" AT TIME ZONE 'UTC')::date, "currency", sum("amount"),
       sum(CASE WHEN "level" = 1 AND "kind" = 'trade' AND "deal_id" IS NOT NULL THEN "lots"
                WHEN "level" = 1 AND "kind" = 'reversal' THEN -"lots" ELSE 0 END),
       count(*)::int
  FROM "partner_commissions"
 GROUP BY 1, 2, 3;--> statement-breakpoint
DELETE FROM "partner_traders";--> statement-breakpoint
INSERT INTO "partner_traders" ("partner_id", "customer_id", "first_at", "last_at")
SELECT "partner_id", "customer_id", min("accrued_at"), max("accrued_at")
  FROM "partner_commissions"
 WHERE "level" = 1 AND "kind" = 'trade' AND "deal_id" IS NOT NULL
 GROUP BY 1, 2;--> statement-breakpoint
-- The statement's inserted rows added to the roll-up per partner, UTC day and currency (amount, volume lots: level 1,
-- less the voided, and rows), and the level-1 trade rows to each client's first and last deal (an earlier one moves
-- first_at, a later one last_at, anything else changes nothing). Rows are upserted in key order, so two statements at
-- once lock the rows they share in the same order. A roll-up row (partner, day, currency) is only written by a
-- transaction that already holds the partner's commission wallet in that currency (the accrual and the CPA lock their
-- wallets before inserting, the reversal each wallet before its row), so it adds no deadlock either.
CREATE FUNCTION partner_commissions_roll_up() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO partner_commission_days AS d (partner_id, day, currency, amount, lots, entries)
  SELECT c.partner_id, (c.accrued_at AT TIME ZONE 'UTC')::date, c.currency, sum(c.amount),
         sum(CASE WHEN c.level = 1 AND c.kind = 'trade' AND c.deal_id IS NOT NULL THEN c.lots
                  WHEN c.level = 1 AND c.kind = 'reversal' THEN -c.lots ELSE 0 END),
         count(*)::int
    FROM inserted c
   GROUP BY 1, 2, 3
   ORDER BY 1, 2, 3
  ON CONFLICT (partner_id, day, currency) DO UPDATE
     SET amount = d.amount + excluded.amount, lots = d.lots + excluded.lots, entries = d.entries + excluded.entries;
  INSERT INTO partner_traders AS t (partner_id, customer_id, first_at, last_at)
  SELECT c.partner_id, c.customer_id, min(c.accrued_at), max(c.accrued_at)
    FROM inserted c
   WHERE c.level = 1 AND c.kind = 'trade' AND c.deal_id IS NOT NULL
   GROUP BY 1, 2
   ORDER BY 1, 2
  ON CONFLICT (partner_id, customer_id) DO UPDATE
     SET first_at = least(t.first_at, excluded.first_at), last_at = greatest(t.last_at, excluded.last_at)
   WHERE excluded.first_at < t.first_at OR excluded.last_at > t.last_at;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER partner_commissions_roll_up AFTER INSERT ON "partner_commissions" REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION partner_commissions_roll_up();--> statement-breakpoint
-- A write that does not come from a trigger (the roll-up trigger's upserts run at trigger depth 2) is skipped, not
-- refused, so an instance still on the code that added to these tables itself keeps accruing while it is replaced. A
-- later migration that derives them again disables these triggers around it.
CREATE FUNCTION partner_roll_up_by_trigger_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() > 1 THEN RETURN NEW; END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER partner_commission_days_by_trigger_only BEFORE INSERT OR UPDATE ON "partner_commission_days" FOR EACH ROW EXECUTE FUNCTION partner_roll_up_by_trigger_only();--> statement-breakpoint
CREATE TRIGGER partner_traders_by_trigger_only BEFORE INSERT OR UPDATE ON "partner_traders" FOR EACH ROW EXECUTE FUNCTION partner_roll_up_by_trigger_only();--> statement-breakpoint
CREATE TRIGGER partner_commissions_append_only BEFORE UPDATE OR DELETE ON "partner_commissions" FOR EACH ROW EXECUTE FUNCTION refuse_record_change();--> statement-breakpoint
CREATE TRIGGER partner_commissions_no_truncate BEFORE TRUNCATE ON "partner_commissions" FOR EACH STATEMENT EXECUTE FUNCTION refuse_record_change();
