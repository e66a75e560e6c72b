-- why: the rollover walks a run's open positions in lanes of wallets side by side, each on a connection of its own;
-- each lane's progress is a row of its own, locked by its batches, so the lanes never wait for one another
CREATE TABLE "rollover_lanes" (
	"trading_date" date NOT NULL,
	"lane" integer NOT NULL,
	"last_balance_id" integer NOT NULL,
	"end_balance_id" integer NOT NULL,
	"charged" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "rollover_lanes_pk" PRIMARY KEY("trading_date","lane")
);
