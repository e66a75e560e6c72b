import { z } from 'zod';
import { MoneyString, requiredString } from './common.ts';
import { MAX_PRICE, decimalInput } from './trading.ts';

/** Price alerts: "bid/ask crosses X" on an instrument, fired once by the server. */

export const ALERT_SIDES = ['bid', 'ask'] as const;
export const ALERT_CONDITIONS = ['above', 'below'] as const;
/** A client's cap on alerts waiting at once. */
export const MAX_ACTIVE_ALERTS = 100;

export const AlertRequest = z.object({
  instrument: requiredString('Instrument is required', 40),
  side: z.enum(ALERT_SIDES, { error: 'Choose bid or ask' }),
  condition: z.enum(ALERT_CONDITIONS, { error: 'Choose above or below' }),
  price: decimalInput('Enter the alert price', MAX_PRICE).refine((s) => Number(s) > 0, {
    error: 'The price must be above zero',
  }),
  email: z.boolean().optional().default(false),
});
export type AlertRequest = z.input<typeof AlertRequest>;

export const AlertDto = z.object({
  id: z.number().int(),
  instrument: z.string(),
  side: z.enum(ALERT_SIDES),
  condition: z.enum(ALERT_CONDITIONS),
  price: MoneyString,
  email: z.boolean(),
  /** active until it fires; fired alerts stay listed with the time and price. */
  status: z.enum(['active', 'fired']),
  fired_at: z.string().nullable(),
  fired_price: MoneyString.nullable(),
  created_at: z.string(),
});
export type AlertDto = z.infer<typeof AlertDto>;
export const AlertsResponse = z.object({ data: z.array(AlertDto) });
export type AlertsResponse = z.infer<typeof AlertsResponse>;
export const AlertResponse = z.object({ message: z.string(), alert: AlertDto });
export type AlertResponse = z.infer<typeof AlertResponse>;
