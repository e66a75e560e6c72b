-- Partners (introducing brokers): commission plans and versions, the partner tree, client assignment, accrued commissions, commission wallets.
CREATE TABLE "partner_client_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"from_partner_id" integer,
	"to_partner_id" integer,
	"reason" text NOT NULL,
	"actor_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_clients" (
	"customer_id" integer PRIMARY KEY NOT NULL,
	"partner_id" integer,
	"reason" text NOT NULL,
	"assigned_by" integer,
	"assigned_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_commissions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" varchar(10) NOT NULL,
	"deal_id" integer,
	"deposit_id" integer,
	"customer_id" integer NOT NULL,
	"level" integer NOT NULL,
	"partner_id" integer NOT NULL,
	"plan_version_id" integer NOT NULL,
	"balance_id" integer NOT NULL,
	"instrument" varchar(40),
	"lots" numeric(20, 8) DEFAULT '0' NOT NULL,
	"base" numeric(20, 8) NOT NULL,
	"amount" numeric(20, 8) NOT NULL,
	"currency" varchar(10) NOT NULL,
	"accrued_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "partner_commissions_kind_check" CHECK ("partner_commissions"."kind" in ('trade', 'cpa', 'reversal')),
	CONSTRAINT "partner_commissions_source_check" CHECK (("partner_commissions"."deal_id" is null) <> ("partner_commissions"."deposit_id" is null)),
	CONSTRAINT "partner_commissions_level_check" CHECK ("partner_commissions"."level" between 1 and 10)
);
--> statement-breakpoint
CREATE TABLE "partner_links" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"plan_id" integer NOT NULL,
	"parent_id" integer,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "partner_links_not_own_parent" CHECK ("partner_links"."parent_id" is distinct from "partner_links"."user_id")
);
--> statement-breakpoint
CREATE TABLE "partner_plan_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"plan_id" integer NOT NULL,
	"effective_from" timestamp with time zone NOT NULL,
	"name" varchar(80) NOT NULL,
	"currency" varchar(10) NOT NULL,
	"per_lot" jsonb NOT NULL,
	"spread_share" numeric(9, 4) NOT NULL,
	"commission_share" numeric(9, 4) NOT NULL,
	"cpa" numeric(20, 8) NOT NULL,
	"cpa_min_deposit" numeric(20, 8) NOT NULL,
	"levels" jsonb NOT NULL,
	"count_demo" boolean DEFAULT false NOT NULL,
	"min_hold_seconds" integer DEFAULT 0 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "partner_plan_versions_shares_check" CHECK ("partner_plan_versions"."spread_share" between 0 and 100 and "partner_plan_versions"."commission_share" between 0 and 100),
	CONSTRAINT "partner_plan_versions_amounts_check" CHECK ("partner_plan_versions"."cpa" >= 0 and "partner_plan_versions"."cpa_min_deposit" >= 0 and "partner_plan_versions"."min_hold_seconds" >= 0)
);
--> statement-breakpoint
CREATE TABLE "partner_plans" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(80) NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_sweep" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"closed_up_to" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_wallets" (
	"user_id" integer NOT NULL,
	"currency" varchar(10) NOT NULL,
	"balance_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "partner_wallets_pk" PRIMARY KEY("user_id","currency")
);
--> statement-breakpoint
ALTER TABLE "partner_client_history" ADD CONSTRAINT "partner_client_history_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_client_history" ADD CONSTRAINT "partner_client_history_from_partner_id_users_id_fk" FOREIGN KEY ("from_partner_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_client_history" ADD CONSTRAINT "partner_client_history_to_partner_id_users_id_fk" FOREIGN KEY ("to_partner_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_client_history" ADD CONSTRAINT "partner_client_history_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_clients" ADD CONSTRAINT "partner_clients_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_clients" ADD CONSTRAINT "partner_clients_partner_id_users_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_clients" ADD CONSTRAINT "partner_clients_assigned_by_users_id_fk" FOREIGN KEY ("assigned_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_commissions" ADD CONSTRAINT "partner_commissions_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_commissions" ADD CONSTRAINT "partner_commissions_partner_id_users_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_commissions" ADD CONSTRAINT "partner_commissions_plan_version_id_partner_plan_versions_id_fk" FOREIGN KEY ("plan_version_id") REFERENCES "public"."partner_plan_versions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_commissions" ADD CONSTRAINT "partner_commissions_balance_id_balances_id_fk" FOREIGN KEY ("balance_id") REFERENCES "public"."balances"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_links" ADD CONSTRAINT "partner_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_links" ADD CONSTRAINT "partner_links_plan_id_partner_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."partner_plans"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_links" ADD CONSTRAINT "partner_links_parent_id_users_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_links" ADD CONSTRAINT "partner_links_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_plan_versions" ADD CONSTRAINT "partner_plan_versions_plan_id_partner_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."partner_plans"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_plan_versions" ADD CONSTRAINT "partner_plan_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_wallets" ADD CONSTRAINT "partner_wallets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_wallets" ADD CONSTRAINT "partner_wallets_balance_id_balances_id_fk" FOREIGN KEY ("balance_id") REFERENCES "public"."balances"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "partner_client_history_customer_idx" ON "partner_client_history" USING btree ("customer_id","id");--> statement-breakpoint
CREATE INDEX "partner_clients_partner_idx" ON "partner_clients" USING btree ("partner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "partner_commissions_deal_unique" ON "partner_commissions" USING btree ("deal_id","level","kind") WHERE "partner_commissions"."deal_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "partner_commissions_cpa_unique" ON "partner_commissions" USING btree ("customer_id","level") WHERE "partner_commissions"."kind" = 'cpa';--> statement-breakpoint
CREATE INDEX "partner_commissions_partner_idx" ON "partner_commissions" USING btree ("partner_id","accrued_at");--> statement-breakpoint
CREATE INDEX "partner_links_parent_idx" ON "partner_links" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "partner_links_plan_idx" ON "partner_links" USING btree ("plan_id");--> statement-breakpoint
CREATE UNIQUE INDEX "partner_plan_versions_plan_from_unique" ON "partner_plan_versions" USING btree ("plan_id","effective_from");