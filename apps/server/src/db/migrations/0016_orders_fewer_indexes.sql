-- Every index on orders is written at a trade's open and again at its close (the close changes indexed columns, so
-- it is never a HOT update). These two duplicated others: orders_live_user_idx (user_id, id) serves every per-customer
-- list, which all leave voided trades out, and the primary key walks the trades lists newest first.
DROP INDEX IF EXISTS "orders_user_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "orders_live_idx";
