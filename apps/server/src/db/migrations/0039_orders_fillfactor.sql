-- why: the rollover rewrites every open position's swap each day. No index of orders covers swap, so that update can
-- be a HOT update (the new row version on the same page, no index written) when the page has room for it; with full
-- pages each of them wrote an entry into six indexes. Pages of orders written from now on are left half empty: a
-- batch of the rollover rewrites every open position of a page at once when they belong to neighbouring wallets, so
-- a page needs room for a second copy of each of its rows. Pages written before keep their rows until those move
-- (the next update of each places it on a new page). The setting takes a lock that lets reads and writes go on.
ALTER TABLE "orders" SET (fillfactor = 50);
