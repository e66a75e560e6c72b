/**
 * Rollover instants in the configured time zone: the instant a trading date's rollover happens (its cutoff) and the
 * latest trading date whose rollover is due at a given instant. The caller passes "now", so tests and probes cross a
 * rollover on purpose.
 */

const formats = new Map<string, Intl.DateTimeFormat>();
function formatOf(tz: string): Intl.DateTimeFormat {
  let f = formats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(tz, f);
  }
  return f;
}

/** The wall-clock time of an instant in a zone, as if it were UTC (milliseconds). */
function wallClock(at: Date, tz: string): number {
  const p: Record<string, number> = {};
  for (const part of formatOf(tz).formatToParts(at)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
}

const ymd = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The local date (YYYY-MM-DD) of an instant in a zone. */
export const localDateOf = (at: Date, tz: string): string => ymd(wallClock(at, tz));

/** A date `days` after (or before) a YYYY-MM-DD date. */
export const addDays = (date: string, days: number): string => ymd(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000);

/**
 * The instant a trading date's rollover happens: `time` (HH:MM) on that date in `tz`. On a daylight-saving change the
 * zone's offset at that instant is used (a time the clocks skip is taken an hour later).
 */
export function cutoffOf(date: string, time: string, tz: string): Date {
  const wanted = Date.parse(`${date}T${time}:00Z`);
  let at = wanted;
  for (let i = 0; i < 3; i++) {
    const off = wallClock(new Date(at), tz) - at;
    const next = wanted - off;
    if (next === at) break;
    at = next;
  }
  return new Date(at);
}

/** The latest trading date whose rollover time has come at `now`. */
export function dueTradingDate(now: Date, time: string, tz: string): string {
  const today = localDateOf(now, tz);
  return cutoffOf(today, time, tz).getTime() <= now.getTime() ? today : addDays(today, -1);
}
