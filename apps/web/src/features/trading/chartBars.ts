import { chartBarStart, type Candle, type ChartInterval } from '@platform/domain';

const DAY_SECONDS = 86_400;

/** Start of the UTC day, in Unix seconds, of an epoch time in milliseconds: the time of its daily bar. */
export const dayStart = (epochMs: number): number => Math.floor(epochMs / 1000 / DAY_SECONDS) * DAY_SECONDS;

/**
 * The current bar after a new bid: a tick of a later bar period opens a new bar at that price; otherwise the last
 * bar takes the price as its close and stretches its high or low. A tick that seems older than the last bar (a
 * clock behind the server's) still updates the last bar rather than rewriting history. Daily bars by default; weeks
 * start on Monday and months on the 1st (UTC), as the server builds them.
 */
export function liveBar(last: Candle, bid: number, tickMs: number, interval: ChartInterval = '1d'): Candle {
  const start = chartBarStart(interval, Math.floor(tickMs / 1000));
  if (start > last.time) return { time: start, open: bid, high: bid, low: bid, close: bid };
  return { ...last, high: Math.max(last.high, bid), low: Math.min(last.low, bid), close: bid };
}
