-- Orders carry their wallet's mode and currency (fixed for a wallet's life), so reports filter and group without a join.
ALTER TABLE "orders" ADD COLUMN "balance_mode" varchar(4);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "balance_currency" varchar(10);--> statement-breakpoint
UPDATE "orders" o SET "balance_mode" = b."mode", "balance_currency" = b."currency" FROM "balances" b WHERE b."id" = o."balance_id";--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "balance_mode" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "balance_currency" SET NOT NULL;--> statement-breakpoint
-- The back-office trades lists page live trades newest first, all, open or closed, and a customer's or a manager's
-- customers' trades (index-only: close_time rides along).
CREATE INDEX "orders_live_idx" ON "orders" USING btree ("id") INCLUDE ("close_time") WHERE "voided_at" is null;--> statement-breakpoint
CREATE INDEX "orders_live_user_idx" ON "orders" USING btree ("user_id", "id") INCLUDE ("close_time") WHERE "voided_at" is null;--> statement-breakpoint
CREATE INDEX "user_profiles_manager_idx" ON "user_profiles" USING btree ("manager_id","user_id");--> statement-breakpoint
-- The dashboard's aggregates read these alone (index-only): real trades by open and by close time, approved money by
-- request time. They replace the plain created_at and close_time indexes of orders.
DROP INDEX "orders_created_idx";--> statement-breakpoint
DROP INDEX "orders_closed_time_idx";--> statement-breakpoint
CREATE INDEX "orders_report_opened_idx" ON "orders" USING btree ("created_at") INCLUDE ("kind") WHERE "voided_at" is null and "balance_mode" = 'real';--> statement-breakpoint
CREATE INDEX "orders_report_closed_idx" ON "orders" USING btree ("close_time") INCLUDE ("balance_currency", "pro_loss") WHERE "voided_at" is null and "close_time" is not null and "balance_mode" = 'real';--> statement-breakpoint
CREATE INDEX "deposits_report_idx" ON "deposits" USING btree ("created_at") INCLUDE ("currency", "amount") WHERE "status" = 'approved';--> statement-breakpoint
CREATE INDEX "withdrawals_report_idx" ON "withdrawals" USING btree ("created_at") INCLUDE ("currency", "amount") WHERE "status" = 'approved';--> statement-breakpoint
CREATE INDEX "users_customers_created_idx" ON "users" USING btree ("created_at") WHERE "role_id" = 3 and "deleted_at" is null;--> statement-breakpoint
CREATE INDEX "users_customers_idx" ON "users" USING btree ("id") WHERE "role_id" = 3 and "deleted_at" is null;--> statement-breakpoint
-- "Contains" search over customers' names, emails and phones through trigram indexes (pg_trgm comes with 0009_crm).
CREATE INDEX "users_customers_search_trgm" ON "users" USING gin ((coalesce("full_name", '') || ' ' || "email") gin_trgm_ops) WHERE "role_id" = 3 and "deleted_at" is null;--> statement-breakpoint
CREATE INDEX "user_profiles_phone_trgm" ON "user_profiles" USING gin ("phone" gin_trgm_ops) WHERE "phone" is not null;
--> statement-breakpoint
-- Money moves only on real wallets, in the wallet's currency: reports rely on it, so the database holds it whatever the code does.
CREATE FUNCTION money_on_real_wallet() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM balances b WHERE b.id = NEW.balance_id AND b.mode = 'real' AND b.currency = NEW.currency) THEN
    RAISE EXCEPTION '% must be on a real wallet in its currency', TG_TABLE_NAME USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER deposits_real_wallet BEFORE INSERT OR UPDATE OF balance_id, currency ON deposits FOR EACH ROW EXECUTE FUNCTION money_on_real_wallet();--> statement-breakpoint
CREATE TRIGGER withdrawals_real_wallet BEFORE INSERT OR UPDATE OF balance_id, currency ON withdrawals FOR EACH ROW EXECUTE FUNCTION money_on_real_wallet();
