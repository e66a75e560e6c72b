ALTER TABLE "mail_outbox" ADD COLUMN "secret" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "token_id" integer;--> statement-breakpoint
-- Mails stored before this change hold their sign-in links in the readable text: take them out.
UPDATE "mail_outbox" SET "text" = regexp_replace("text", 'https?://\S*(verify-email|reset-password)\?token=[A-Za-z0-9_-]+', '[link removed]', 'g'), "html" = NULL WHERE "text" ~ '\?token=';
