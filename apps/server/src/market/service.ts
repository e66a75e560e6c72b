import {
  CHART_INTERVAL_SPECS,
  chartBarStart,
  contractSizeOf,
  dec,
  type Candle,
  type ChartInterval,
  type InstrumentDto,
} from '@platform/domain';
import { AppError } from '../lib/errors.ts';
import type { InstrumentRow } from './instruments.ts';
import type { Market } from './types.ts';

/** The long and short swap rates as the answers carry them: snake_case as the spec's fields, camelCase as sent. */
export function swapRatesOf(row: { swapLong: string; swapShort: string }) {
  const long = dec(row.swapLong).toString();
  const short = dec(row.swapShort).toString();
  return { swap_long: long, swap_short: short, swapLong: long, swapShort: short };
}

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
    ...swapRatesOf(row),
    digits: row.digits,
    contract_size: contractSizeOf(row).toString(),
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
  const row =
    market.instruments.byNameOf(symbol) ?? market.instruments.byNameOf(symbol.replace('/', '_').toUpperCase());
  if (!row) throw new AppError('INSTRUMENT_NOT_FOUND');
  return row;
}

/** Stored bars of each source interval in one bar of that length (an upper bound for months: 31 days). */
const SOURCE_SECONDS = { '1m': 60, '1h': 3600, '1d': 86_400 } as const;
/** The most stored bars one request reads to build longer ones. */
const MAX_SOURCE_BARS = 30_000;

/** GET /market/candles: the latest bars of one instrument, oldest first. */
export async function candlesOf(
  market: Pick<Market, 'instruments' | 'candles'>,
  query: { symbol: string; interval: ChartInterval; limit: number },
): Promise<Candle[]> {
  const row = instrumentBySymbol(market, query.symbol);
  const { seconds, source } = CHART_INTERVAL_SPECS[query.interval];
  if (query.interval === source) return market.candles(row.id, source, query.limit);
  // 5m, 15m and 4h bars are built from the stored 1m and 1h bars; weeks and months from the daily bars.
  const longest = query.interval === '1mo' ? 31 * 86_400 : seconds;
  const factor = Math.ceil(longest / SOURCE_SECONDS[source]);
  const bars = await market.candles(row.id, source, Math.min(query.limit * factor, MAX_SOURCE_BARS));
  return resample(bars, query.interval).slice(-query.limit);
}

/**
 * Merges consecutive bars into bars of `interval` (UTC: weeks from Monday, months from the 1st, the others
 * multiples of their length): first open, highest high, lowest low, last close. A bar starts at its bucket's start
 * even when the market opened later in it (a week whose Monday was a holiday still starts on Monday).
 */
export function resample(bars: readonly Candle[], interval: ChartInterval): Candle[] {
  const out: Candle[] = [];
  for (const b of bars) {
    const time = chartBarStart(interval, b.time);
    const last = out[out.length - 1];
    if (last && last.time === time) {
      last.high = Math.max(last.high, b.high);
      last.low = Math.min(last.low, b.low);
      last.close = b.close;
    } else out.push({ time, open: b.open, high: b.high, low: b.low, close: b.close });
  }
  return out;
}
