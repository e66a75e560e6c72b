-- Trading depth 2: swaps at the rollover (long and short rates per instrument, the charges keyed by position and
-- trading date, the runs), commissions, margin calls and swap-free terms per pricing plan, each deal's swap and
-- commission, and stop-out reports. Every default keeps today's behaviour: no swap, no commission, no margin call.
CREATE TABLE "rollover_runs" (
	"trading_date" date PRIMARY KEY NOT NULL,
	"cutoff" timestamp with time zone NOT NULL,
	"last_balance_id" integer DEFAULT 0 NOT NULL,
	"last_order_id" integer DEFAULT 0 NOT NULL,
	"charged" integer DEFAULT 0 NOT NULL,
	"started_by" integer,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "stopout_reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"balance_id" integer NOT NULL,
	"margin_level" numeric(20, 8) NOT NULL,
	"equity" numeric(20, 8) NOT NULL,
	"balance" numeric(20, 8) NOT NULL,
	"positions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"protection_credit" numeric(20, 8) DEFAULT '0' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stopout_reports_protection_check" CHECK ("stopout_reports"."protection_credit" >= 0)
);
--> statement-breakpoint
CREATE TABLE "swap_charges" (
	"order_id" integer NOT NULL,
	"trading_date" date NOT NULL,
	"kind" varchar(4) DEFAULT 'swap' NOT NULL,
	"days" integer NOT NULL,
	"amount" numeric(20, 8) NOT NULL,
	"currency" varchar(10) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "swap_charges_order_date_pk" PRIMARY KEY("order_id","trading_date"),
	CONSTRAINT "swap_charges_kind_check" CHECK ("swap_charges"."kind" in ('swap', 'fee')),
	CONSTRAINT "swap_charges_days_check" CHECK ("swap_charges"."days" between 1 and 7)
);
--> statement-breakpoint
ALTER TABLE "balances" ADD COLUMN "margin_call_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "instruments" ADD COLUMN "swap_long" numeric(10, 4) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "instruments" ADD COLUMN "swap_short" numeric(10, 4) DEFAULT '0' NOT NULL;--> statement-breakpoint
-- The spec's single swap is the default of both sides.
UPDATE "instruments" SET "swap_long" = "swap", "swap_short" = "swap" WHERE "swap" <> 0;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "swap" numeric(20, 8) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "commission" numeric(20, 8) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "pricing_plans" ADD COLUMN "forex_commission" numeric(20, 8) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "pricing_plans" ADD COLUMN "commodity_commission" numeric(20, 8) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "pricing_plans" ADD COLUMN "index_commission" numeric(20, 8) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "pricing_plans" ADD COLUMN "stock_commission" numeric(20, 8) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "pricing_plans" ADD COLUMN "crypto_commission" numeric(20, 8) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "pricing_plans" ADD COLUMN "commission_basis" varchar(7) DEFAULT 'lot' NOT NULL;--> statement-breakpoint
ALTER TABLE "pricing_plans" ADD COLUMN "commission_charge" varchar(5) DEFAULT 'both' NOT NULL;--> statement-breakpoint
ALTER TABLE "pricing_plans" ADD COLUMN "margin_call_level" integer;--> statement-breakpoint
ALTER TABLE "pricing_plans" ADD COLUMN "margin_call_rearm" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "pricing_plans" ADD COLUMN "swap_free" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "pricing_plans" ADD COLUMN "swap_free_fee" numeric(20, 8) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "pricing_plans" ADD COLUMN "swap_free_days" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "rollover_runs" ADD CONSTRAINT "rollover_runs_started_by_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stopout_reports" ADD CONSTRAINT "stopout_reports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stopout_reports" ADD CONSTRAINT "stopout_reports_balance_id_balances_id_fk" FOREIGN KEY ("balance_id") REFERENCES "public"."balances"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "swap_charges" ADD CONSTRAINT "swap_charges_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stopout_reports_user_idx" ON "stopout_reports" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "stopout_reports_balance_idx" ON "stopout_reports" USING btree ("balance_id","id");--> statement-breakpoint
ALTER TABLE "instruments" ADD CONSTRAINT "instruments_swap_check" CHECK ("instruments"."swap" between -100 and 100 and "instruments"."swap_long" between -100 and 100 and "instruments"."swap_short" between -100 and 100);--> statement-breakpoint
ALTER TABLE "pricing_plans" ADD CONSTRAINT "pricing_plans_commission_check" CHECK ("pricing_plans"."forex_commission" >= 0 and "pricing_plans"."commodity_commission" >= 0 and "pricing_plans"."index_commission" >= 0 and "pricing_plans"."stock_commission" >= 0 and "pricing_plans"."crypto_commission" >= 0 and "pricing_plans"."commission_basis" in ('lot', 'million') and "pricing_plans"."commission_charge" in ('open', 'close', 'both'));--> statement-breakpoint
ALTER TABLE "pricing_plans" ADD CONSTRAINT "pricing_plans_margin_call_check" CHECK (("pricing_plans"."margin_call_level" is null or "pricing_plans"."margin_call_level" between 1 and 1000) and "pricing_plans"."margin_call_rearm" between 0 and 1000);--> statement-breakpoint
ALTER TABLE "pricing_plans" ADD CONSTRAINT "pricing_plans_swap_free_check" CHECK ("pricing_plans"."swap_free_fee" >= 0 and "pricing_plans"."swap_free_days" between 0 and 3650);