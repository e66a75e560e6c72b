-- why: a burst of fills finds its waiting orders by id; keyed by instrument, the index led the fill's generic plan to
-- read every waiting order of the instrument for each batch (the pending book's load reads them all either way)
DROP INDEX "pending_orders_waiting_idx";--> statement-breakpoint
CREATE INDEX "pending_orders_waiting_idx" ON "pending_orders" USING btree ("id") WHERE "pending_orders"."status" = 'pending';