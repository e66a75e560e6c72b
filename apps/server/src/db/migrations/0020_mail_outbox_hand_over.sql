-- A mail job's run claims its mail (attempt) and records when SMTP took DATA and the text began to go (handed_at):
-- a retry after a crash sends a mail whose run died while connecting, and never one that may have gone out.
ALTER TABLE "mail_outbox" ADD COLUMN "attempt" varchar(36);--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "handed_at" timestamp with time zone;