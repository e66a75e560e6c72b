import { z } from 'zod';
import { parseIsoDate } from './common.ts';

/**
 * The daily rollover (swaps): when it happens (site settings) and the admins' "run rollover now". A trading date's
 * rollover charges or credits every position open across it once, whoever runs it and however often.
 */

/** Where the rollover time is kept when no one set it: 17:00 New York, the end of the forex trading day. */
export const DEFAULT_ROLLOVER_TIME = '17:00';
export const DEFAULT_ROLLOVER_TIMEZONE = 'America/New_York';

/** A time of day HH:MM (24 hours). */
export const RolloverTime = z
  .string({ error: 'Enter a time as HH:MM' })
  .trim()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'Enter a time as HH:MM (00:00 to 23:59)' });

/** An IANA time zone the runtime knows (America/New_York, Europe/London, UTC). */
export const RolloverTimezone = z
  .string({ error: 'Enter a time zone such as America/New_York' })
  .trim()
  .min(1, { error: 'Enter a time zone such as America/New_York' })
  .max(64, { error: 'Enter a time zone such as America/New_York' })
  .refine(isTimeZone, { error: 'Enter a time zone such as America/New_York' });

export function isTimeZone(tz: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(tz)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** POST /admin/rollover/run: the trading date (YYYY-MM-DD, a real date) whose rollover runs now. */
export const RolloverRunRequest = z.object({
  tradingDate: z
    .string({ error: 'Enter the trading date as YYYY-MM-DD' })
    .trim()
    .max(10, { error: 'Enter the trading date as YYYY-MM-DD' })
    .refine((s) => parseIsoDate(s) !== null, { error: 'Enter a real trading date as YYYY-MM-DD' }),
});
export type RolloverRunRequest = z.input<typeof RolloverRunRequest>;

/** What a run did: positions charged or credited now (0 on a re-run) and in all runs of that date. */
export const RolloverRunResponse = z.object({
  message: z.string(),
  tradingDate: z.string(),
  /** The instant that decided which positions the date's rollover charges (open at it). */
  cutoff: z.string(),
  charged: z.number().int(),
  chargedTotal: z.number().int(),
  finished: z.boolean(),
});
export type RolloverRunResponse = z.infer<typeof RolloverRunResponse>;
