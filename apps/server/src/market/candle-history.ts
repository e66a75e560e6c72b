import { and, eq, inArray, notExists, sql } from 'drizzle-orm';
import { marketOfCategory, type Category, type MarketStatus } from '@platform/domain';
import type { DbOrTx } from '../db/client.ts';
import { candles, instruments } from '../db/schema.ts';
import { type Bar, INTERVAL_MS, writeBars } from './candles.ts';
import { marketStatusAt } from './hours.ts';
import type { InstrumentRow } from './instruments.ts';
import { createRandom, seedFor, type Random } from './random.ts';
import { ANNUAL_VOLATILITY } from './simulated-feed.ts';

const HOUR = INTERVAL_MS['1h'];
const DAY = INTERVAL_MS['1d'];
/** Daily bars generated back from today, and how many of the latest days also get hourly bars. */
export const HISTORY_DAYS = 365;
export const HOURLY_DAYS = 30;

/** Trading days a year and trading hours a day, to spread the annual volatility over the bars. */
const DAYS_A_YEAR: Record<Category, number> = { forex: 260, commodity: 260, index: 260, stock: 252, crypto: 365 };
const HOURS_A_DAY: Record<Category, number> = { forex: 24, commodity: 24, index: 24, stock: 6.5, crypto: 24 };

/**
 * Gives every instrument without candles a year of daily bars and a month of hourly bars, so charts are full from
 * the first start. The bars are a seeded random walk run backwards from the instrument's current (bid) price, so
 * the newest bar closes exactly there; hours and days when the instrument's market was closed get no bar, as on a
 * real chart. The daily bars of the hourly month are built from the hourly bars, so both charts agree.
 * Returns the number of bars written; instruments that already have candles cost one query in total.
 */
export async function ensureHistory(
  db: DbOrTx,
  list: readonly InstrumentRow[],
  now: number,
  seed: number,
): Promise<number> {
  if (list.length === 0) return 0;
  const missing = await db
    .select({ id: instruments.id })
    .from(instruments)
    .where(
      and(
        inArray(
          instruments.id,
          list.map((i) => i.id),
        ),
        notExists(db.select({ one: sql`1` }).from(candles).where(eq(candles.instrumentId, instruments.id))),
      ),
    );
  const ids = new Set(missing.map((m) => m.id));
  const todo = list.filter((i) => ids.has(i.id) && Number(i.bids) > 0);
  if (todo.length === 0) return 0;
  const calendar = new Calendar(now);
  const bars = todo.flatMap((row) => generateBars(row, calendar, createRandom(seedFor(seed, row.name))));
  await writeBars(db, bars, 'insert-missing');
  return bars.length;
}

/**
 * The slots of the history: days before the hourly month and hours within it, with the market status at the
 * middle of each hour (New York offsets are whole hours, so hh:30 UTC shows whether the market traded in it).
 * Computed once and shared by every instrument.
 */
class Calendar {
  readonly days: number[] = [];
  readonly hours: number[] = [];
  private readonly status = new Map<number, MarketStatus>();

  constructor(now: number) {
    const today = Math.floor(now / DAY) * DAY;
    const firstHourly = today - (HOURLY_DAYS - 1) * DAY;
    for (let d = today - (HISTORY_DAYS - 1) * DAY; d < firstHourly; d += DAY) this.days.push(d);
    for (let h = firstHourly; h <= Math.floor(now / HOUR) * HOUR; h += HOUR) this.hours.push(h);
    for (let h = this.days[0] ?? firstHourly; h <= now; h += HOUR)
      this.status.set(h, marketStatusAt(new Date(h + HOUR / 2)));
  }

  hourOpen(category: Category, hour: number): boolean {
    return this.status.get(hour)?.[marketOfCategory(category)] === 'open';
  }

  dayOpen(category: Category, day: number): boolean {
    for (let h = day; h < day + DAY; h += HOUR) if (this.hourOpen(category, h)) return true;
    return false;
  }
}

function generateBars(row: InstrumentRow, calendar: Calendar, random: Random): Bar[] {
  const { category, digits } = row;
  const sigmaDay = ANNUAL_VOLATILITY[category] / Math.sqrt(DAYS_A_YEAR[category]);
  const sigmaHour = sigmaDay / Math.sqrt(HOURS_A_DAY[category]);
  const scale = 10 ** digits;
  const round = (v: number) => Math.max(1, Math.round(v * scale)) / scale;
  const make = (interval: Bar['interval'], start: number, open: number, close: number, sigma: number): Bar => {
    // Wicks beyond the body: half a bar's volatility on average, so high >= max(open, close) and low <= min.
    const high = Math.max(open, close) * Math.exp(Math.abs(random.gauss()) * sigma * 0.5);
    const low = Math.min(open, close) * Math.exp(-Math.abs(random.gauss()) * sigma * 0.5);
    return {
      instrumentId: row.id,
      interval,
      start,
      open: round(open),
      high: round(high),
      low: round(low),
      close: round(close),
    };
  };

  // Backwards from the current price: each bar's open is its close undone by one random step, and the bar
  // before closes where this one opens.
  let close = Number(row.bids);
  const hourly: Bar[] = [];
  for (let i = calendar.hours.length - 1; i >= 0; i--) {
    const start = calendar.hours[i];
    if (!calendar.hourOpen(category, start)) continue;
    const open = close * Math.exp(-sigmaHour * random.gauss());
    hourly.push(make('1h', start, open, close, sigmaHour));
    close = open;
  }
  hourly.reverse();
  const daily: Bar[] = [];
  for (let i = calendar.days.length - 1; i >= 0; i--) {
    const start = calendar.days[i];
    if (!calendar.dayOpen(category, start)) continue;
    const open = close * Math.exp(-sigmaDay * random.gauss());
    daily.push(make('1d', start, open, close, sigmaDay));
    close = open;
  }
  daily.reverse();
  return [...daily, ...dailyFromHourly(hourly), ...hourly];
}

/** Daily bars of the hourly month, aggregated from its hourly bars (UTC days). */
function dailyFromHourly(hourly: readonly Bar[]): Bar[] {
  const days: Bar[] = [];
  for (const h of hourly) {
    const start = Math.floor(h.start / DAY) * DAY;
    const day = days.at(-1);
    if (day && day.start === start) {
      day.high = Math.max(day.high, h.high);
      day.low = Math.min(day.low, h.low);
      day.close = h.close;
    } else {
      days.push({ ...h, interval: '1d', start });
    }
  }
  return days;
}
