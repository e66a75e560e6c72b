-- Four-eyes approvals: actions above a threshold wait here for a second staff member's decision.
CREATE TABLE "approval_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" varchar(30) NOT NULL,
	"status" varchar(10) DEFAULT 'pending' NOT NULL,
	"requested_by" integer NOT NULL,
	"requested_ip" varchar(64),
	"target_user_id" integer,
	"subject_key" varchar(60),
	"payload" jsonb NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"summary" varchar(300) NOT NULL,
	"amount" numeric(20, 8),
	"currency" varchar(10),
	"amount_site" numeric(20, 8),
	"site_currency" varchar(10) NOT NULL,
	"threshold" numeric(20, 8),
	"reason" text,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"decision_reason" text,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_target_user_id_users_id_fk" FOREIGN KEY ("target_user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "approval_requests_status_idx" ON "approval_requests" USING btree ("status","id");--> statement-breakpoint
CREATE UNIQUE INDEX "approval_requests_pending_subject_idx" ON "approval_requests" USING btree ("subject_key") WHERE "approval_requests"."status" = 'pending' and "approval_requests"."subject_key" is not null;