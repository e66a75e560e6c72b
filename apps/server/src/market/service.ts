import { dec, type Candle, type CandleInterval, type InstrumentDto } from '@platform/domain';
import { AppError } from '../lib/errors.ts';
import type { InstrumentRow } from './instruments.ts';
import type { Market } from './types.ts';

export function instrumentDto(row: InstrumentRow, market: Pick<Market, 'book'>): InstrumentDto {
  const q = market.book.get(row.name);
  return {
    id: row.id,
    name: row.name,
    base: row.base,
    quote: row.quote,
    alias: row.alias,
    category: row.category,
    tradable: row.tradable,
    tradingview: row.tradingview,
    leverage: row.leverage,
    swap: dec(row.swap).toString(),
    digits: row.digits,
    bids: q?.bid ?? null,
    asks: q?.ask ?? null,
    closeoutBid: q?.closeoutBid ?? null,
    closeoutAsk: q?.closeoutAsk ?? null,
  };
}

/** GET /dashboard/instruments: the whole universe with the current quotes (the dashboard tabs filter by category). */
export function listInstruments(market: Pick<Market, 'book' | 'instruments'>): InstrumentDto[] {
  return market.instruments.list().map((row) => instrumentDto(row, market));
}

/** An instrument by its name; the chart may also say `USD/CNH` or lower case for `USD_CNH`. */
export function instrumentBySymbol(market: Pick<Market, 'instruments'>, symbol: string): InstrumentRow {
  const row = market.instruments.byNameOf(symbol) ?? market.instruments.byNameOf(symbol.replace('/', '_').toUpperCase());
  if (!row) throw new AppError('INSTRUMENT_NOT_FOUND');
  return row;
}

/** GET /market/candles: the latest bars of one instrument, oldest first. */
export async function candlesOf(
  market: Pick<Market, 'instruments' | 'candles'>,
  query: { symbol: string; interval: CandleInterval; limit: number },
): Promise<Candle[]> {
  const row = instrumentBySymbol(market, query.symbol);
  return market.candles(row.id, query.interval, query.limit);
}
