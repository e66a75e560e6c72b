ALTER TABLE "instruments" ADD COLUMN "contract_size" numeric(20, 8);--> statement-breakpoint
ALTER TABLE "pricing_plans" ADD COLUMN "retail" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "pricing_plans" ADD COLUMN "retail_caps" jsonb;--> statement-breakpoint
ALTER TABLE "pricing_plans" ADD COLUMN "revision" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "instruments" ADD CONSTRAINT "instruments_contract_size_check" CHECK ("instruments"."contract_size" is null or "instruments"."contract_size" > 0);