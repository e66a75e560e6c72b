CREATE TABLE "affiliate_api_keys" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"key_hash" varchar(64) NOT NULL,
	"prefix" varchar(16) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "affiliate_api_keys" ADD CONSTRAINT "affiliate_api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "affiliate_api_keys_hash_unique" ON "affiliate_api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "leads_email_idx" ON "leads" USING btree (lower("email"),"user_id") WHERE "leads"."deleted_at" is null;