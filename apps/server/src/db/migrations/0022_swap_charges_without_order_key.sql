-- The rollover writes a swap_charges row per position and trading date from the orders it has just read (orders are
-- never deleted): the foreign key's check on each row cost about an eighth of a rollover, and is dropped.
ALTER TABLE "swap_charges" DROP CONSTRAINT "swap_charges_order_id_orders_id_fk";
