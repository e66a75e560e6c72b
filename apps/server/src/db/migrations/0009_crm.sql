CREATE TABLE "lead_notes" (
	"id" serial PRIMARY KEY NOT NULL,
	"lead_id" integer NOT NULL,
	"user_id" integer,
	"content" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leads" (
	"id" serial PRIMARY KEY NOT NULL,
	"first_name" varchar(100) NOT NULL,
	"last_name" varchar(100),
	"email" varchar(255),
	"phone" varchar(32),
	"country" varchar(100),
	"city" varchar(100),
	"funnel_link" varchar(500),
	"reference" varchar(120),
	"lead_source_id" varchar(120),
	"lead_status" varchar(60) NOT NULL,
	"group" varchar(12) DEFAULT 'sales' NOT NULL,
	"source" varchar(12) DEFAULT 'manual' NOT NULL,
	"manager_id" integer,
	"agent_id" integer,
	"ret_id" integer,
	"user_id" integer,
	"linked_user_id" integer,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "leads_group_check" CHECK ("leads"."group" in ('sales', 'retentions', 'archived', 'clients')),
	CONSTRAINT "leads_source_check" CHECK ("leads"."source" in ('manual', 'live', 'affiliate'))
);
--> statement-breakpoint
CREATE TABLE "sales_statuses" (
	"id" serial PRIMARY KEY NOT NULL,
	"status" varchar(60) NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- The leads reference a status by its text: the unique index must exist before that foreign key.
CREATE UNIQUE INDEX "sales_statuses_status_unique" ON "sales_statuses" USING btree ("status");--> statement-breakpoint
ALTER TABLE "lead_notes" ADD CONSTRAINT "lead_notes_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_notes" ADD CONSTRAINT "lead_notes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_lead_status_sales_statuses_status_fk" FOREIGN KEY ("lead_status") REFERENCES "public"."sales_statuses"("status") ON DELETE restrict ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_manager_id_users_id_fk" FOREIGN KEY ("manager_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_agent_id_users_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_ret_id_users_id_fk" FOREIGN KEY ("ret_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_linked_user_id_users_id_fk" FOREIGN KEY ("linked_user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lead_notes_lead_idx" ON "lead_notes" USING btree ("lead_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "leads_linked_user_unique" ON "leads" USING btree ("linked_user_id");--> statement-breakpoint
CREATE INDEX "leads_group_idx" ON "leads" USING btree ("group","id") WHERE "leads"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "leads_group_status_idx" ON "leads" USING btree ("group","lead_status","id") WHERE "leads"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "leads_group_created_idx" ON "leads" USING btree ("group","created_at") WHERE "leads"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "leads_source_idx" ON "leads" USING btree ("source","id") WHERE "leads"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "leads_agent_idx" ON "leads" USING btree ("agent_id","group","id") WHERE "leads"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "leads_ret_idx" ON "leads" USING btree ("ret_id","group","id") WHERE "leads"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "leads_user_idx" ON "leads" USING btree ("user_id","id") WHERE "leads"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "leads_status_idx" ON "leads" USING btree ("lead_status");--> statement-breakpoint
CREATE UNIQUE INDEX "sales_statuses_one_default" ON "sales_statuses" USING btree ("is_default") WHERE "sales_statuses"."is_default";--> statement-breakpoint
-- "Contains" search over a lead's name, email, phone and reference through one trigram index (fast at millions of leads).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "leads_search_trgm" ON "leads" USING gin ((coalesce("first_name", '') || ' ' || coalesce("last_name", '') || ' ' || coalesce("email", '') || ' ' || coalesce("phone", '') || ' ' || coalesce("reference", '')) gin_trgm_ops) WHERE "deleted_at" is null;
