-- Trading beyond market orders: pending orders (kept for ever, one-way states), price alerts, trailing stops and
-- partial closes on positions, and hedging or netting accounts per pricing plan (hedging, today's behaviour, by default).
CREATE TABLE "pending_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"balance_id" integer NOT NULL,
	"instrument_id" integer NOT NULL,
	"instrument" varchar(40) NOT NULL,
	"side" varchar(4) NOT NULL,
	"order_type" varchar(10) NOT NULL,
	"amount" numeric(20, 8) NOT NULL,
	"price" numeric(20, 8) NOT NULL,
	"limit_price" numeric(20, 8),
	"take_profit" numeric(20, 8),
	"stop_loss" numeric(20, 8),
	"expiry" varchar(4) DEFAULT 'gtc' NOT NULL,
	"expires_at" timestamp with time zone,
	"status" varchar(10) DEFAULT 'pending' NOT NULL,
	"reason" text,
	"activated_at" timestamp with time zone,
	"oco_id" integer,
	"order_id" integer,
	"fill_price" numeric(20, 8),
	"closed_by" integer,
	"closed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pending_orders_side_check" CHECK ("pending_orders"."side" in ('buy', 'sell')),
	CONSTRAINT "pending_orders_type_check" CHECK ("pending_orders"."order_type" in ('limit', 'stop', 'stop_limit')),
	CONSTRAINT "pending_orders_status_check" CHECK ("pending_orders"."status" in ('pending', 'filled', 'cancelled', 'expired')),
	CONSTRAINT "pending_orders_expiry_check" CHECK ("pending_orders"."expiry" in ('gtc', 'day', 'date')),
	CONSTRAINT "pending_orders_amount_positive" CHECK ("pending_orders"."amount" > 0 and "pending_orders"."price" > 0),
	CONSTRAINT "pending_orders_closed_check" CHECK (("pending_orders"."status" = 'pending') = ("pending_orders"."closed_at" is null) and ("pending_orders"."status" = 'filled') = ("pending_orders"."order_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "price_alerts" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"instrument_id" integer NOT NULL,
	"instrument" varchar(40) NOT NULL,
	"side" varchar(3) NOT NULL,
	"condition" varchar(5) NOT NULL,
	"price" numeric(20, 8) NOT NULL,
	"email" boolean DEFAULT false NOT NULL,
	"fired_at" timestamp with time zone,
	"fired_price" numeric(20, 8),
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "price_alerts_side_check" CHECK ("price_alerts"."side" in ('bid', 'ask')),
	CONSTRAINT "price_alerts_condition_check" CHECK ("price_alerts"."condition" in ('above', 'below')),
	CONSTRAINT "price_alerts_price_positive" CHECK ("price_alerts"."price" > 0)
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "trailing_distance" numeric(20, 8);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "trailing_step" numeric(20, 8);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "partial_of" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "pending_order_id" integer;--> statement-breakpoint
ALTER TABLE "pricing_plans" ADD COLUMN "account_type" varchar(8) DEFAULT 'hedging' NOT NULL;--> statement-breakpoint
ALTER TABLE "pending_orders" ADD CONSTRAINT "pending_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_orders" ADD CONSTRAINT "pending_orders_balance_id_balances_id_fk" FOREIGN KEY ("balance_id") REFERENCES "public"."balances"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_orders" ADD CONSTRAINT "pending_orders_instrument_id_instruments_id_fk" FOREIGN KEY ("instrument_id") REFERENCES "public"."instruments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_orders" ADD CONSTRAINT "pending_orders_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_orders" ADD CONSTRAINT "pending_orders_closed_by_users_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_alerts" ADD CONSTRAINT "price_alerts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_alerts" ADD CONSTRAINT "price_alerts_instrument_id_instruments_id_fk" FOREIGN KEY ("instrument_id") REFERENCES "public"."instruments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pending_orders_balance_idx" ON "pending_orders" USING btree ("balance_id","status");--> statement-breakpoint
CREATE INDEX "pending_orders_waiting_idx" ON "pending_orders" USING btree ("instrument_id") WHERE "pending_orders"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "pending_orders_expiry_idx" ON "pending_orders" USING btree ("expires_at") WHERE "pending_orders"."status" = 'pending' and "pending_orders"."expires_at" is not null;--> statement-breakpoint
CREATE INDEX "price_alerts_user_idx" ON "price_alerts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "price_alerts_active_idx" ON "price_alerts" USING btree ("instrument_id") WHERE "price_alerts"."fired_at" is null;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_partial_of_orders_id_fk" FOREIGN KEY ("partial_of") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_partial_of_idx" ON "orders" USING btree ("partial_of") WHERE "orders"."partial_of" is not null;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_trailing_check" CHECK (("orders"."trailing_distance" is null and "orders"."trailing_step" is null) or ("orders"."trailing_distance" > 0 and "orders"."trailing_step" >= 0));--> statement-breakpoint
ALTER TABLE "pricing_plans" ADD CONSTRAINT "pricing_plans_account_type_check" CHECK ("pricing_plans"."account_type" in ('hedging', 'netting'));