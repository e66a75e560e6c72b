import type { Category, MarketStatus } from '@platform/domain';
import { marketOfCategory } from '@platform/domain';

export type MarketHoursMode = 'exchange' | 'open' | 'closed';

/**
 * Trading hours follow New York local time, so daylight saving moves them in UTC with the real markets:
 * - forex (whose status also covers commodities and indices): Sunday 17:00 to Friday 17:00 New York;
 * - stocks: NYSE regular session 09:30 to 16:00 New York, Monday to Friday, except NYSE full-day holidays;
 * - crypto: always open.
 */
const NY = 'America/New_York';
const FX_ROLL = 17 * 60;
const NYSE_OPEN = 9 * 60 + 30;
const NYSE_CLOSE = 16 * 60;

interface LocalTime {
  year: number;
  month: number;
  day: number;
  /** 0 = Sunday, as Date#getUTCDay. */
  weekday: number;
  /** Minutes since local midnight. */
  minutes: number;
}

const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };
// One formatter for the process: building an Intl.DateTimeFormat costs far more than using one.
const nyFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: NY,
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  weekday: 'short',
  hour: 'numeric',
  minute: 'numeric',
});

export function newYorkTime(at: Date): LocalTime {
  const parts: Record<string, string> = {};
  for (const p of nyFormat.formatToParts(at)) parts[p.type] = p.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    weekday: WEEKDAYS[parts.weekday],
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
  };
}

const ymd = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
const weekdayOf = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d)).getUTCDay();

/** Day of month of the n-th given weekday of a month (n = -1: the last one). */
function nthWeekday(y: number, m: number, weekday: number, n: number): number {
  if (n > 0) {
    const first = weekdayOf(y, m, 1);
    return 1 + ((weekday - first + 7) % 7) + (n - 1) * 7;
  }
  const lastDay = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return lastDay - ((weekdayOf(y, m, lastDay) - weekday + 7) % 7);
}

/** Easter Sunday (Gregorian computus, Meeus/Jones/Butcher) as [month, day]. */
function easter(y: number): [number, number] {
  const a = y % 19;
  const b = Math.floor(y / 100);
  const c = y % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  return [Math.floor((h + l - 7 * m + 114) / 31), ((h + l - 7 * m + 114) % 31) + 1];
}

/** A fixed-date holiday moved off the weekend: Saturday to Friday, Sunday to Monday. */
function observed(y: number, m: number, d: number): string {
  const t = Date.UTC(y, m - 1, d);
  const shift = { 6: -1, 0: 1 }[new Date(t).getUTCDay()] ?? 0;
  const o = new Date(t + shift * 86_400_000);
  return ymd(o.getUTCFullYear(), o.getUTCMonth() + 1, o.getUTCDate());
}

/** NYSE full-day closures of one year, as YYYY-MM-DD in New York. */
function computeNyseHolidays(y: number): Set<string> {
  const days = new Set<string>();
  // New Year on a Saturday is not observed on the Friday before: NYSE keeps the year's last session open.
  if (weekdayOf(y, 1, 1) !== 6) days.add(observed(y, 1, 1));
  days.add(ymd(y, 1, nthWeekday(y, 1, 1, 3))); // Martin Luther King Jr. Day
  days.add(ymd(y, 2, nthWeekday(y, 2, 1, 3))); // Washington's Birthday
  const [em, ed] = easter(y);
  const goodFriday = new Date(Date.UTC(y, em - 1, ed) - 2 * 86_400_000);
  days.add(ymd(y, goodFriday.getUTCMonth() + 1, goodFriday.getUTCDate()));
  days.add(ymd(y, 5, nthWeekday(y, 5, 1, -1))); // Memorial Day
  if (y >= 2022) days.add(observed(y, 6, 19)); // Juneteenth, an NYSE holiday since 2022
  days.add(observed(y, 7, 4));
  days.add(ymd(y, 9, nthWeekday(y, 9, 1, 1))); // Labor Day
  days.add(ymd(y, 11, nthWeekday(y, 11, 4, 4))); // Thanksgiving
  days.add(observed(y, 12, 25));
  return days;
}

const holidayCache = new Map<number, Set<string>>();
export function nyseHolidays(year: number): Set<string> {
  let days = holidayCache.get(year);
  if (!days) holidayCache.set(year, (days = computeNyseHolidays(year)));
  return days;
}

function fxOpenAt(ny: LocalTime): boolean {
  if (ny.weekday === 6) return false;
  if (ny.weekday === 5) return ny.minutes < FX_ROLL;
  if (ny.weekday === 0) return ny.minutes >= FX_ROLL;
  return true;
}

function stockOpenAt(ny: LocalTime): boolean {
  if (ny.weekday === 0 || ny.weekday === 6) return false;
  if (ny.minutes < NYSE_OPEN || ny.minutes >= NYSE_CLOSE) return false;
  return !nyseHolidays(ny.year).has(ymd(ny.year, ny.month, ny.day));
}

/** Real trading hours at an instant. */
export function marketStatusAt(now: Date): MarketStatus {
  const ny = newYorkTime(now);
  return { fx: fxOpenAt(ny) ? 'open' : 'closed', stock: stockOpenAt(ny) ? 'open' : 'closed', crypto: 'open' };
}

const HALF_HOUR = 30 * 60_000;

/**
 * When a closed market opens next (every opening falls on a whole or half New York hour, so half-hour steps find
 * it exactly), or null within two weeks.
 */
export function nextOpenAt(now: Date, market: 'fx' | 'stock'): Date | null {
  const isOpen = market === 'fx' ? fxOpenAt : stockOpenAt;
  let t = Math.ceil((now.getTime() + 1) / HALF_HOUR) * HALF_HOUR;
  for (let i = 0; i < 14 * 48; i++, t += HALF_HOUR) if (isOpen(newYorkTime(new Date(t)))) return new Date(t);
  return null;
}

/**
 * When the trading day of a category that is open at `now` ends (a "day" pending order expires then): forex,
 * commodities and indices roll over at 17:00 New York, stocks close at 16:00 New York, crypto's day ends at midnight
 * UTC. Both New York times fall on whole hours, so half-hour steps find them exactly.
 */
export function tradingDayEndAt(now: Date, category: Category): Date {
  if (category === 'crypto') {
    const d = new Date(now);
    d.setUTCHours(24, 0, 0, 0);
    return d;
  }
  const end = category === 'stock' ? NYSE_CLOSE : 17 * 60;
  let t = Math.ceil((now.getTime() + 1) / HALF_HOUR) * HALF_HOUR;
  for (let i = 0; i < 3 * 48; i++, t += HALF_HOUR) if (newYorkTime(new Date(t)).minutes === end) return new Date(t);
  return new Date(now.getTime() + 24 * 3600_000);
}

export class MarketClock {
  /**
   * Every opening and closing falls on a whole minute, so one computation serves a whole minute: the feeds and
   * the risk engine ask for every instrument on every tick.
   */
  private cached: { minute: number; status: MarketStatus } | null = null;
  private reopening: { minute: number; nextOpen: NonNullable<MarketStatus['nextOpen']> } | null = null;

  constructor(
    private readonly mode: MarketHoursMode,
    private readonly now: () => Date = () => new Date(),
  ) {}

  status(): MarketStatus {
    if (this.mode === 'open') return { fx: 'open', stock: 'open', crypto: 'open' };
    if (this.mode === 'closed') return { fx: 'closed', stock: 'closed', crypto: 'closed' };
    const at = this.now();
    const minute = Math.floor(at.getTime() / 60_000);
    if (this.cached?.minute !== minute) this.cached = { minute, status: marketStatusAt(at) };
    return { ...this.cached.status };
  }

  /** The status with when each closed market opens again (for screens; computed at most once a minute). */
  statusWithReopening(): MarketStatus {
    const status = this.status();
    if (this.mode !== 'exchange') return { ...status, nextOpen: { fx: null, stock: null } };
    const at = this.now();
    const minute = Math.floor(at.getTime() / 60_000);
    if (this.reopening?.minute !== minute) {
      const next = (m: 'fx' | 'stock') => (status[m] === 'closed' ? (nextOpenAt(at, m)?.toISOString() ?? null) : null);
      this.reopening = { minute, nextOpen: { fx: next('fx'), stock: next('stock') } };
    }
    return { ...status, nextOpen: this.reopening.nextOpen };
  }

  isOpen(category: Category): boolean {
    return this.status()[marketOfCategory(category)] === 'open';
  }
}
