CREATE TABLE "deposits" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"balance_id" integer NOT NULL,
	"gateway" varchar(20) NOT NULL,
	"amount" numeric(20, 8) NOT NULL,
	"fee" numeric(20, 8) NOT NULL,
	"total" numeric(20, 8) NOT NULL,
	"currency" varchar(10) NOT NULL,
	"status" varchar(10) DEFAULT 'pending' NOT NULL,
	"reference" varchar(64) NOT NULL,
	"provider_ref" varchar(128),
	"bank_name" varchar(120),
	"account_name" varchar(120),
	"account_number" varchar(64),
	"proof_file_id" varchar(40),
	"coin" varchar(10),
	"wallet_address" varchar(255),
	"coin_rate" numeric(20, 8),
	"coin_amount" numeric(20, 8),
	"balance_after" numeric(20, 8),
	"decline_reason" text,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deposits_status_check" CHECK ("deposits"."status" in ('pending', 'approved', 'declined')),
	CONSTRAINT "deposits_amount_positive" CHECK ("deposits"."amount" > 0 and "deposits"."fee" >= 0 and "deposits"."total" = "deposits"."amount" + "deposits"."fee")
);
--> statement-breakpoint
CREATE TABLE "external_payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(120) NOT NULL,
	"link" varchar(500) NOT NULL,
	"custom_label" varchar(120),
	"custom_value" varchar(255),
	"logo_file_id" varchar(40),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_callbacks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" varchar(20) NOT NULL,
	"event_id" varchar(200),
	"headers" jsonb NOT NULL,
	"body" text NOT NULL,
	"outcome" varchar(20) DEFAULT 'received' NOT NULL,
	"error" text,
	"deposit_id" integer,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_gateways" (
	"kind" varchar(20) PRIMARY KEY NOT NULL,
	"key1" text,
	"key2" text,
	"key3" text,
	"key4" text,
	"key5" text,
	"fee" numeric(9, 4) DEFAULT '0' NOT NULL,
	"is_active" boolean DEFAULT false NOT NULL,
	"file_id" varchar(40),
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stored_files" (
	"id" varchar(40) PRIMARY KEY NOT NULL,
	"owner_id" integer,
	"purpose" varchar(20) NOT NULL,
	"mime" varchar(60) NOT NULL,
	"size" integer NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "withdrawals" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"balance_id" integer NOT NULL,
	"gateway" varchar(20) DEFAULT 'bank' NOT NULL,
	"amount" numeric(20, 8) NOT NULL,
	"fee" numeric(20, 8) NOT NULL,
	"total" numeric(20, 8) NOT NULL,
	"currency" varchar(10) NOT NULL,
	"status" varchar(10) DEFAULT 'pending' NOT NULL,
	"bank_name" varchar(120) NOT NULL,
	"account_name" varchar(120) NOT NULL,
	"account_number" varchar(64) NOT NULL,
	"swift_code" varchar(20) NOT NULL,
	"bank_country" varchar(100) NOT NULL,
	"balance_after" numeric(20, 8) NOT NULL,
	"decline_reason" text,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "withdrawals_status_check" CHECK ("withdrawals"."status" in ('pending', 'approved', 'declined')),
	CONSTRAINT "withdrawals_amount_positive" CHECK ("withdrawals"."amount" > 0 and "withdrawals"."fee" >= 0 and "withdrawals"."total" = "withdrawals"."amount" + "withdrawals"."fee")
);
--> statement-breakpoint
ALTER TABLE "kyc_documents" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_balance_id_balances_id_fk" FOREIGN KEY ("balance_id") REFERENCES "public"."balances"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stored_files" ADD CONSTRAINT "stored_files_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_balance_id_balances_id_fk" FOREIGN KEY ("balance_id") REFERENCES "public"."balances"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deposits_reference_unique" ON "deposits" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "deposits_user_idx" ON "deposits" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "deposits_status_idx" ON "deposits" USING btree ("status","id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_callbacks_event_unique" ON "payment_callbacks" USING btree ("kind","event_id");--> statement-breakpoint
CREATE INDEX "stored_files_owner_idx" ON "stored_files" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "withdrawals_user_idx" ON "withdrawals" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "withdrawals_status_idx" ON "withdrawals" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "kyc_status_idx" ON "kyc_documents" USING btree ("status","id");