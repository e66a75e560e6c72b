-- why: the partner dashboard reads its chart and totals from a roll-up per partner, UTC day and currency (kept by the accrual's, the CPA's and the reversal's own statements, partners/days.ts) instead of a year's rows, and counts its active traders by one index probe per client
CREATE TABLE "partner_commission_days" (
	"partner_id" integer NOT NULL,
	"day" date NOT NULL,
	"currency" varchar(10) NOT NULL,
	"amount" numeric NOT NULL,
	"lots" numeric NOT NULL,
	"entries" integer NOT NULL,
	CONSTRAINT "partner_commission_days_pk" PRIMARY KEY("partner_id","day","currency")
);
--> statement-breakpoint
ALTER TABLE "partner_commission_days" ADD CONSTRAINT "partner_commission_days_partner_id_users_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "partner_commissions_trader_idx" ON "partner_commissions" USING btree ("partner_id","customer_id","accrued_at") WHERE "partner_commissions"."level" = 1 and "partner_commissions"."kind" = 'trade' and "partner_commissions"."deal_id" is not null;
--> statement-breakpoint
-- The commissions accrued so far, rolled up as partners/days.ts adds them from now on.
INSERT INTO "partner_commission_days" ("partner_id", "day", "currency", "amount", "lots", "entries")
SELECT "partner_id", ("accrued_at" at time zone 'UTC')::date, "currency", sum("amount"),
       sum(case when "level" = 1 and "kind" = 'trade' and "deal_id" is not null then "lots"
                when "level" = 1 and "kind" = 'reversal' then -"lots" else 0 end),
       count(*)::int
  FROM "partner_commissions"
 GROUP BY 1, 2, 3;
