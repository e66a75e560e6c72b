-- Customer 360 in the back-office lists (docs/decisions.md "Customer 360"): each customer's main real wallet and its
-- floating P/L as the risk engine last wrote it, the first approved deposit, the KYC state and the last sign-in, kept
-- on the rows the lists page through, with the indexes that sort and filter them.
ALTER TABLE "balances" ADD COLUMN "main" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "balances" ADD COLUMN "floating_pl" numeric(20, 8) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "ftd_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "ftd_amount" numeric(20, 8);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "ftd_currency" varchar(10);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "kyc_status" varchar(10) DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_login_at" timestamp with time zone;--> statement-breakpoint
-- The main real wallet: each customer's first real wallet; later real wallets (other currencies) are not main.
UPDATE "balances" SET "main" = true WHERE "id" IN (SELECT min("id") FROM "balances" WHERE "mode" = 'real' GROUP BY "user_id");--> statement-breakpoint
CREATE FUNCTION balances_main_wallet() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.mode = 'real' AND NOT NEW.main AND NOT EXISTS (SELECT 1 FROM balances b WHERE b.user_id = NEW.user_id AND b.main) THEN
    NEW.main := true;
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER balances_main_wallet BEFORE INSERT ON balances FOR EACH ROW EXECUTE FUNCTION balances_main_wallet();--> statement-breakpoint
-- The first approved deposit (its review time, else its request time, as the lead lists' FTD AT has always read it).
UPDATE "users" u SET "ftd_at" = f.at, "ftd_amount" = f.amount, "ftd_currency" = f.currency
  FROM (SELECT DISTINCT ON ("user_id") "user_id", coalesce("reviewed_at", "created_at") AS at, "amount", "currency"
          FROM "deposits" WHERE "status" = 'approved' ORDER BY "user_id", coalesce("reviewed_at", "created_at"), "id") f
 WHERE u."id" = f."user_id";--> statement-breakpoint
-- KYC: approved once any document was approved (what trading checks), else the latest submission's state.
UPDATE "users" u SET "kyc_status" = k.status
  FROM (SELECT "user_id",
               CASE WHEN bool_or("status" = 'approved') THEN 'approved'
                    WHEN (array_agg("status" ORDER BY "id" DESC))[1] IN ('pending', 'declined') THEN (array_agg("status" ORDER BY "id" DESC))[1]
                    ELSE 'none' END AS status
          FROM "kyc_documents" GROUP BY "user_id") k
 WHERE u."id" = k."user_id";--> statement-breakpoint
-- The last sign-in: the newest session the user opened themselves, else (sessions expire) when they were last seen.
UPDATE "users" u SET "last_login_at" = coalesce(s.at, u."last_seen_at")
  FROM (SELECT "user_id", max("created_at") AS at FROM "sessions" WHERE "impersonator_id" IS NULL GROUP BY "user_id") s
 WHERE u."id" = s."user_id";--> statement-breakpoint
UPDATE "users" SET "last_login_at" = "last_seen_at" WHERE "last_login_at" IS NULL AND "last_seen_at" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "balances_main_user_unique" ON "balances" USING btree ("user_id") WHERE "balances"."main";--> statement-breakpoint
CREATE INDEX "balances_main_balance_idx" ON "balances" USING btree ("balance","id") WHERE "balances"."main";--> statement-breakpoint
CREATE INDEX "balances_main_equity_idx" ON "balances" USING btree (("balance" + "floating_pl"),"id") WHERE "balances"."main";--> statement-breakpoint
CREATE INDEX "users_customers_ftd_at_idx" ON "users" USING btree ("ftd_at","id") WHERE "users"."role_id" = 3 and "users"."deleted_at" is null and "users"."ftd_at" is not null;--> statement-breakpoint
CREATE INDEX "users_customers_ftd_amount_idx" ON "users" USING btree ("ftd_amount","id") WHERE "users"."role_id" = 3 and "users"."deleted_at" is null and "users"."ftd_amount" is not null;--> statement-breakpoint
CREATE INDEX "users_customers_kyc_idx" ON "users" USING btree ("kyc_status","id") WHERE "users"."role_id" = 3 and "users"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "users_customers_login_idx" ON "users" USING btree ("last_login_at","id") WHERE "users"."role_id" = 3 and "users"."deleted_at" is null and "users"."last_login_at" is not null;--> statement-breakpoint
ALTER TABLE "balances" ADD CONSTRAINT "balances_main_real_check" CHECK (not "balances"."main" or "balances"."mode" = 'real');--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_kyc_status_check" CHECK ("users"."kyc_status" in ('approved', 'declined', 'none', 'pending'));