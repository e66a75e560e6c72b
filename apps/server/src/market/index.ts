import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Realtime } from '../realtime/realtime.ts';
import { PriceBook } from './price-book.ts';
import { InstrumentRegistry } from './instruments.ts';
import { MarketClock } from './hours.ts';
import type { Market } from './types.ts';

export type { Market } from './types.ts';

/** Builds the market: instruments and last stored prices are loaded here; feeds start with start(). */
export async function createMarket(deps: { config: Config; db: Db; realtime: Realtime }): Promise<Market> {
  const book = new PriceBook();
  const instruments = new InstrumentRegistry();
  await instruments.reload(deps.db);
  const now = Date.now();
  book.prime(
    instruments
      .list()
      .filter((i) => i.bids !== null && i.asks !== null)
      .map((i) => ({ name: i.name, bid: Number(i.bids), ask: Number(i.asks), closeoutBid: Number(i.bids), closeoutAsk: Number(i.asks), time: now })),
  );
  const clock = new MarketClock(deps.config.MARKET_HOURS);
  const mid = (name: string): number | null => {
    const q = book.get(name);
    return q ? (q.bid + q.ask) / 2 : null;
  };
  return {
    book,
    instruments,
    status: () => clock.status(),
    isOpen: (c) => clock.isOpen(c),
    conversionRate(quote, walletCurrency) {
      if (quote === walletCurrency) return 1;
      const direct = mid(`${walletCurrency}_${quote}`);
      if (direct) return direct;
      const inverse = mid(`${quote}_${walletCurrency}`);
      return inverse ? 1 / inverse : null;
    },
    async start() {},
    async stop() {},
  };
}
