CREATE TABLE "crm_calls" (
	"id" serial PRIMARY KEY NOT NULL,
	"lead_id" integer,
	"caller_id" integer,
	"agent" varchar(255) NOT NULL,
	"number_tail" varchar(16),
	"provider" varchar(10) NOT NULL,
	"call_id" varchar(100),
	"status" varchar(10) NOT NULL,
	"reason" varchar(300),
	"outcome" varchar(60),
	"outcome_at" timestamp with time zone,
	"disposition" varchar(30),
	"duration_s" integer,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "crm_calls_status_check" CHECK ("crm_calls"."status" in ('started', 'failed')),
	CONSTRAINT "crm_calls_provider_check" CHECK ("crm_calls"."provider" in ('voiso', 'sandbox'))
);
--> statement-breakpoint
CREATE TABLE "crm_tasks" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"created_by" integer,
	"lead_id" integer,
	"customer_id" integer,
	"kind" varchar(10) DEFAULT 'callback' NOT NULL,
	"note" varchar(500),
	"due_at" timestamp with time zone NOT NULL,
	"done_at" timestamp with time zone,
	"done_by" integer,
	"notified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "crm_tasks_kind_check" CHECK ("crm_tasks"."kind" in ('callback', 'task')),
	CONSTRAINT "crm_tasks_subject_check" CHECK (("crm_tasks"."lead_id" is null) <> ("crm_tasks"."customer_id" is null))
);
--> statement-breakpoint
ALTER TABLE "crm_calls" ADD CONSTRAINT "crm_calls_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_calls" ADD CONSTRAINT "crm_calls_caller_id_users_id_fk" FOREIGN KEY ("caller_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_tasks" ADD CONSTRAINT "crm_tasks_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_tasks" ADD CONSTRAINT "crm_tasks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_tasks" ADD CONSTRAINT "crm_tasks_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_tasks" ADD CONSTRAINT "crm_tasks_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_tasks" ADD CONSTRAINT "crm_tasks_done_by_users_id_fk" FOREIGN KEY ("done_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "crm_calls_lead_idx" ON "crm_calls" USING btree ("lead_id","id");--> statement-breakpoint
CREATE INDEX "crm_calls_caller_idx" ON "crm_calls" USING btree ("caller_id","id");--> statement-breakpoint
CREATE INDEX "crm_tasks_owner_due_idx" ON "crm_tasks" USING btree ("owner_id","due_at");--> statement-breakpoint
CREATE INDEX "crm_tasks_lead_due_idx" ON "crm_tasks" USING btree ("lead_id","due_at");--> statement-breakpoint
CREATE INDEX "crm_tasks_customer_due_idx" ON "crm_tasks" USING btree ("customer_id","due_at");--> statement-breakpoint
CREATE INDEX "crm_tasks_unsent_idx" ON "crm_tasks" USING btree ("due_at") WHERE "crm_tasks"."notified_at" is null and "crm_tasks"."done_at" is null;