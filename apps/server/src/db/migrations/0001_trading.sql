CREATE TABLE "candles" (
	"instrument_id" integer NOT NULL,
	"interval" varchar(4) NOT NULL,
	"time" timestamp with time zone NOT NULL,
	"open" numeric(20, 8) NOT NULL,
	"high" numeric(20, 8) NOT NULL,
	"low" numeric(20, 8) NOT NULL,
	"close" numeric(20, 8) NOT NULL,
	CONSTRAINT "candles_instrument_id_interval_time_pk" PRIMARY KEY("instrument_id","interval","time")
);
--> statement-breakpoint
CREATE TABLE "favorites" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"instrument_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "instruments" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(40) NOT NULL,
	"base" varchar(20) NOT NULL,
	"quote" varchar(20) NOT NULL,
	"alias" varchar(80),
	"category" varchar(12) NOT NULL,
	"tradingview" varchar(40) DEFAULT '' NOT NULL,
	"leverage" integer DEFAULT 0 NOT NULL,
	"tradable" boolean DEFAULT true NOT NULL,
	"swap" numeric(10, 4) DEFAULT '0' NOT NULL,
	"digits" integer DEFAULT 5 NOT NULL,
	"bids" numeric(20, 8),
	"asks" numeric(20, 8),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "instruments_category_check" CHECK ("instruments"."category" in ('forex', 'commodity', 'index', 'stock', 'crypto'))
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"balance_id" integer NOT NULL,
	"instrument_id" integer NOT NULL,
	"instrument" varchar(40) NOT NULL,
	"base_symbol" varchar(20) NOT NULL,
	"quote_symbol" varchar(20) NOT NULL,
	"kind" varchar(12) NOT NULL,
	"type" varchar(4) NOT NULL,
	"trade_amount" numeric(20, 8) NOT NULL,
	"open_rate" numeric(20, 8) NOT NULL,
	"open_bid" numeric(20, 8) NOT NULL,
	"open_ask" numeric(20, 8) NOT NULL,
	"close_rate" numeric(20, 8),
	"close_time" timestamp with time zone,
	"take_profit" numeric(20, 8),
	"stop_loss" numeric(20, 8),
	"spread" numeric(20, 8) NOT NULL,
	"exchange_rate" numeric(20, 8) NOT NULL,
	"margin_used" numeric(20, 8) NOT NULL,
	"leverage" integer NOT NULL,
	"pro_loss" numeric(20, 8),
	"close_reason" varchar(12),
	"closed_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_type_check" CHECK ("orders"."type" in ('buy', 'sell')),
	CONSTRAINT "orders_amount_positive" CHECK ("orders"."trade_amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "candles" ADD CONSTRAINT "candles_instrument_id_instruments_id_fk" FOREIGN KEY ("instrument_id") REFERENCES "public"."instruments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favorites" ADD CONSTRAINT "favorites_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favorites" ADD CONSTRAINT "favorites_instrument_id_instruments_id_fk" FOREIGN KEY ("instrument_id") REFERENCES "public"."instruments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_balance_id_balances_id_fk" FOREIGN KEY ("balance_id") REFERENCES "public"."balances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_instrument_id_instruments_id_fk" FOREIGN KEY ("instrument_id") REFERENCES "public"."instruments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_closed_by_users_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "favorites_user_instrument_unique" ON "favorites" USING btree ("user_id","instrument_id");--> statement-breakpoint
CREATE UNIQUE INDEX "instruments_name_unique" ON "instruments" USING btree ("name");--> statement-breakpoint
CREATE INDEX "instruments_category_idx" ON "instruments" USING btree ("category");--> statement-breakpoint
CREATE INDEX "orders_balance_open_idx" ON "orders" USING btree ("balance_id") WHERE "orders"."close_time" is null;--> statement-breakpoint
CREATE INDEX "orders_balance_closed_idx" ON "orders" USING btree ("balance_id","close_time");--> statement-breakpoint
CREATE INDEX "orders_open_idx" ON "orders" USING btree ("instrument_id") WHERE "orders"."close_time" is null;