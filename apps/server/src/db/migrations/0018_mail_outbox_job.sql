-- A mail sent by a background job names its job: a retry of the job (after a crash, or a send that outlived its
-- expiry) finds the mail and does not send it twice.
ALTER TABLE "mail_outbox" ADD COLUMN "job_id" varchar(64);--> statement-breakpoint
CREATE UNIQUE INDEX "mail_outbox_job_idx" ON "mail_outbox" USING btree ("job_id");
