-- why: the back-office lists count the rows a Customer 360 filter matches through one index of the table counted, not
-- a join per row (docs/decisions.md "Customer 360 in the back-office lists", counts). The customers list counts a
-- balance or equity filter from the main wallets of live customers (balances.live_customer); a lead list counts a KYC or
-- first-deposit filter from the lead's copy of them (leads.customer_kyc_status, customer_ftd_at); customers without a
-- first deposit and inactive ones have an index each. Triggers keep the copies in the writer's transaction.
ALTER TABLE "balances" ADD COLUMN "live_customer" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "customer_kyc_status" varchar(10);--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "customer_ftd_at" timestamp with time zone;--> statement-breakpoint
UPDATE "balances" b SET "live_customer" = true FROM "users" u WHERE u."id" = b."user_id" AND u."role_id" = 3 AND u."deleted_at" IS NULL;--> statement-breakpoint
UPDATE "leads" l SET "customer_kyc_status" = u."kyc_status", "customer_ftd_at" = u."ftd_at" FROM "users" u WHERE u."id" = l."linked_user_id";--> statement-breakpoint
-- A new wallet takes its owner's state (the owner's row is read under a share lock, so a deletion committing meanwhile
-- waits for it or is seen); a change of role or a deletion passes to every wallet of theirs.
CREATE FUNCTION balances_live_customer() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.live_customer := coalesce((SELECT u.role_id = 3 AND u.deleted_at IS NULL FROM users u WHERE u.id = NEW.user_id FOR SHARE), false);
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER balances_live_customer BEFORE INSERT OR UPDATE OF user_id ON balances FOR EACH ROW EXECUTE FUNCTION balances_live_customer();--> statement-breakpoint
CREATE FUNCTION users_live_customer() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE balances SET live_customer = (NEW.role_id = 3 AND NEW.deleted_at IS NULL)
   WHERE user_id = NEW.id AND live_customer IS DISTINCT FROM (NEW.role_id = 3 AND NEW.deleted_at IS NULL);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER users_live_customer AFTER UPDATE OF role_id, deleted_at ON users FOR EACH ROW
  WHEN (OLD.role_id IS DISTINCT FROM NEW.role_id OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at)
  EXECUTE FUNCTION users_live_customer();--> statement-breakpoint
-- A lead linked to a customer (or unlinked) takes the customer's KYC state and first deposit; a change of either on the
-- customer passes to their lead.
CREATE FUNCTION leads_customer_figures() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.linked_user_id IS NULL THEN
    NEW.customer_kyc_status := NULL;
    NEW.customer_ftd_at := NULL;
  ELSE
    SELECT u.kyc_status, u.ftd_at INTO NEW.customer_kyc_status, NEW.customer_ftd_at FROM users u WHERE u.id = NEW.linked_user_id FOR SHARE;
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
-- Only leads that come with a customer or change it call the function (an import of leads without one does not).
CREATE TRIGGER leads_customer_figures_insert BEFORE INSERT ON leads FOR EACH ROW
  WHEN (NEW.linked_user_id IS NOT NULL) EXECUTE FUNCTION leads_customer_figures();--> statement-breakpoint
CREATE TRIGGER leads_customer_figures_update BEFORE UPDATE OF linked_user_id ON leads FOR EACH ROW
  WHEN (OLD.linked_user_id IS DISTINCT FROM NEW.linked_user_id) EXECUTE FUNCTION leads_customer_figures();--> statement-breakpoint
CREATE FUNCTION users_lead_figures() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE leads SET customer_kyc_status = NEW.kyc_status, customer_ftd_at = NEW.ftd_at WHERE linked_user_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER users_lead_figures AFTER UPDATE OF kyc_status, ftd_at ON users FOR EACH ROW
  WHEN (OLD.kyc_status IS DISTINCT FROM NEW.kyc_status OR OLD.ftd_at IS DISTINCT FROM NEW.ftd_at)
  EXECUTE FUNCTION users_lead_figures();--> statement-breakpoint
CREATE INDEX "balances_customers_balance_idx" ON "balances" USING btree ("balance","id") WHERE "balances"."main" and "balances"."live_customer";--> statement-breakpoint
-- The equity's columns are included so a count reads the index alone (an expression index cannot return them).
CREATE INDEX "balances_customers_equity_idx" ON "balances" USING btree (("balance" + "floating_pl"),"id") INCLUDE ("balance","floating_pl") WHERE "balances"."main" and "balances"."live_customer";--> statement-breakpoint
-- The planner's estimate of an equity range (partial indexes keep no statistics of their expression).
CREATE STATISTICS "balances_equity_stats" ON ("balance" + "floating_pl") FROM "balances";--> statement-breakpoint
CREATE INDEX "users_customers_no_ftd_idx" ON "users" USING btree ("id") WHERE "users"."role_id" = 3 and "users"."deleted_at" is null and "users"."ftd_at" is null;--> statement-breakpoint
CREATE INDEX "users_customers_inactive_idx" ON "users" USING btree ("id") WHERE "users"."role_id" = 3 and "users"."deleted_at" is null and not "users"."is_active";--> statement-breakpoint
CREATE INDEX "leads_customer_kyc_idx" ON "leads" USING btree ("group","customer_kyc_status","id") WHERE "leads"."deleted_at" is null and "leads"."linked_user_id" is not null;--> statement-breakpoint
CREATE INDEX "leads_customer_ftd_idx" ON "leads" USING btree ("group","customer_ftd_at","id") WHERE "leads"."deleted_at" is null and "leads"."linked_user_id" is not null;
