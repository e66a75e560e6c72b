-- why: the partner dashboard counts its active traders from each own client's first and last deal (kept by the accrual's statement, partners/days.ts), probing the commissions only for a client who traded before and after a past period
CREATE TABLE "partner_traders" (
	"partner_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"first_at" timestamp with time zone NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	CONSTRAINT "partner_traders_pk" PRIMARY KEY("partner_id","customer_id")
);
--> statement-breakpoint
ALTER TABLE "partner_traders" ADD CONSTRAINT "partner_traders_partner_id_users_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_traders" ADD CONSTRAINT "partner_traders_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
-- The clients' first and last deals so far, as partners/days.ts keeps them from now on.
INSERT INTO "partner_traders" ("partner_id", "customer_id", "first_at", "last_at")
SELECT "partner_id", "customer_id", min("accrued_at"), max("accrued_at")
  FROM "partner_commissions"
 WHERE "level" = 1 AND "kind" = 'trade' AND "deal_id" is not null
 GROUP BY 1, 2;
