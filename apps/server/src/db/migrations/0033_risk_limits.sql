-- why: the dealer's exposure limits per instrument or category, held in memory and checked on the order path
CREATE TABLE "risk_limits" (
	"id" serial PRIMARY KEY NOT NULL,
	"scope" varchar(10) NOT NULL,
	"target" varchar(40) NOT NULL,
	"max_net_volume" numeric(20, 8),
	"max_position_volume" numeric(20, 8),
	"warn_percent" integer DEFAULT 80 NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "risk_limits_scope_check" CHECK ("risk_limits"."scope" in ('instrument', 'category')),
	CONSTRAINT "risk_limits_warn_check" CHECK ("risk_limits"."warn_percent" between 1 and 100),
	CONSTRAINT "risk_limits_positive_check" CHECK (coalesce("risk_limits"."max_net_volume", 1) > 0 and coalesce("risk_limits"."max_position_volume", 1) > 0)
);
--> statement-breakpoint
ALTER TABLE "risk_limits" ADD CONSTRAINT "risk_limits_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "risk_limits_target_unique" ON "risk_limits" USING btree ("scope","target");