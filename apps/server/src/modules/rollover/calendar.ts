import {
  CATEGORIES,
  DEFAULT_ROLLOVER_TIME,
  DEFAULT_ROLLOVER_TIMEZONE,
  DEFAULT_SWAP_CALENDAR,
  isTimeZone,
  RolloverTime,
  SWAP_WEEKDAYS,
  TRIPLE_SWAP_DAYS,
  type Category,
  type SwapSettingsResponse,
  type TripleSwapDay,
} from '@platform/domain';
import type { DbOrTx } from '../../db/client.ts';
import { getSettings } from '../settings/service.ts';

/**
 * When rollovers happen and what each charges: the rollover time (site settings record `rollover`: value1 HH:MM,
 * value2 the time zone) and each category's swap calendar (`swap_{category}`: value1 the triple-swap weekday or none,
 * value2 'on' when Saturday's and Sunday's rollovers charge too). Records missing or malformed read as the defaults.
 */

export const SWAP_KEYS = CATEGORIES.map((c) => `swap_${c}` as const);
export const ROLLOVER_KEY = 'rollover';

export interface RolloverTimeSetting {
  time: string;
  timezone: string;
}

export async function rolloverTimeOf(db: DbOrTx): Promise<RolloverTimeSetting> {
  const row = (await getSettings(db, [ROLLOVER_KEY]))[ROLLOVER_KEY];
  const time = RolloverTime.safeParse(row?.value1 ?? '');
  const tz = row?.value2?.trim() ?? '';
  return {
    time: time.success ? time.data : DEFAULT_ROLLOVER_TIME,
    timezone: tz && isTimeZone(tz) ? tz : DEFAULT_ROLLOVER_TIMEZONE,
  };
}

export async function swapCalendarOf(db: DbOrTx): Promise<SwapSettingsResponse> {
  const rows = await getSettings(db, SWAP_KEYS);
  const out: SwapSettingsResponse = {
    tripleSwapDay: { ...pick('tripleSwapDay') },
    weekends: { ...pick('weekends') },
  };
  for (const c of CATEGORIES) {
    const row = rows[`swap_${c}`];
    const day = row?.value1?.trim().toLowerCase();
    if (day && (TRIPLE_SWAP_DAYS as readonly string[]).includes(day)) out.tripleSwapDay[c] = day as TripleSwapDay;
    if (row?.value2 === 'on' || row?.value2 === 'off') out.weekends[c] = row.value2 === 'on';
  }
  return out;
}

function pick<K extends 'tripleSwapDay' | 'weekends'>(k: K) {
  return Object.fromEntries(CATEGORIES.map((c) => [c, DEFAULT_SWAP_CALENDAR[c][k]])) as Record<
    Category,
    (typeof DEFAULT_SWAP_CALENDAR)[Category][K]
  >;
}

/** Weekday of a YYYY-MM-DD date, as SWAP_WEEKDAYS names it. */
export function weekdayOf(date: string): (typeof SWAP_WEEKDAYS)[number] {
  const d = new Date(`${date}T00:00:00Z`).getUTCDay();
  return SWAP_WEEKDAYS[(d + 6) % 7];
}

/**
 * Days of financing a category's positions pay at a date's rollover: 0 on a weekend the category does not charge,
 * 3 on its triple-swap day, else 1.
 */
export function swapDaysOf(calendar: SwapSettingsResponse, category: Category, date: string): number {
  const day = weekdayOf(date);
  if (!calendar.weekends[category] && (day === 'saturday' || day === 'sunday')) return 0;
  return calendar.tripleSwapDay[category] === day ? 3 : 1;
}
