ALTER TABLE "payment_callbacks" ADD COLUMN "source" varchar(10) DEFAULT 'callback' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_callbacks" ADD COLUMN "query" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_callbacks" ADD COLUMN "confirmation" jsonb;