-- why: the daily checkpoint of the records' chain heads, one row per day (the job's idempotency key), append-only
CREATE TABLE "records_checkpoints" (
	"id" serial PRIMARY KEY NOT NULL,
	"day" date NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"audit_seq" bigint NOT NULL,
	"wallets" integer NOT NULL,
	"signed" boolean NOT NULL,
	"body" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "records_checkpoints_day_idx" ON "records_checkpoints" USING btree ("day");--> statement-breakpoint
CREATE TRIGGER records_checkpoints_append_only BEFORE UPDATE OR DELETE ON "records_checkpoints" FOR EACH ROW EXECUTE FUNCTION refuse_record_change();--> statement-breakpoint
CREATE TRIGGER records_checkpoints_no_truncate BEFORE TRUNCATE ON "records_checkpoints" FOR EACH STATEMENT EXECUTE FUNCTION refuse_record_change();
