import { z } from 'zod';
import { Decimal } from '../money.ts';
import { requiredString } from './common.ts';
import { MAX_PRICE } from './trading.ts';

/** A JSON number as plain decimal text (1e-7 → '0.0000001'); '' for NaN and the infinities. */
const plainNumber = (v: number): string => (Number.isFinite(v) ? new Decimal(v).toFixed() : '');
/** The exact value of decimal text, or null for anything else (the later checks run even when the format failed). */
const decimalOf = (s: string): Decimal | null => (/^\d+(\.\d+)?$/.test(s) ? new Decimal(s) : null);

/** A price typed by staff: a positive decimal with at most 8 decimals, at most MAX_PRICE, kept as exact text. */
const priceField = (label: string) =>
  z
    .union([z.number({ error: `${label} is required` }), z.string({ error: `${label} is required` })], {
      error: `${label} is required`,
    })
    .transform((v) => (typeof v === 'number' ? plainNumber(v) || 'x' : v.trim()))
    .pipe(
      z
        .string()
        .min(1, { error: `${label} is required` })
        .regex(/^\d+(\.\d{1,8})?$/, { error: `${label} must be a positive number with at most 8 decimals` })
        .refine((s) => decimalOf(s)?.gt(0) ?? true, { error: `${label} must be greater than 0` })
        .refine((s) => decimalOf(s)?.lte(MAX_PRICE) ?? true, { error: `${label} must be at most ${MAX_PRICE}` }),
    );

/**
 * POST /admin/simulator/price: the next quote of an instrument the embedded simulated feed prices; the feed walks
 * on from it. `instrument` is the instrument's name (`EUR_USD`; `EUR/USD` and lower case are read the same way).
 */
export const SimulatorPriceRequest = z
  .object({
    instrument: requiredString('Instrument is required', 40),
    bid: priceField('Bid'),
    ask: priceField('Ask'),
  })
  .refine((v) => decimalOf(v.ask)?.gte(decimalOf(v.bid) ?? 0) ?? true, {
    error: 'Ask must be at least the bid',
    path: ['ask'],
  });
export type SimulatorPriceRequest = z.input<typeof SimulatorPriceRequest>;

const QuotePair = z.object({ bid: z.string(), ask: z.string() });

export const SimulatorPriceResponse = z.object({
  message: z.string(),
  instrument: z.string(),
  bid: z.string(),
  ask: z.string(),
  /** The quote it replaced (null when the instrument had none). */
  previous: QuotePair.nullable(),
  /**
   * True when the instrument's market is open: the quote is a tick now (risk engine, clients, candles). False: the
   * market is closed, the quote is held as the current price and the feed walks on from it when the market opens.
   */
  marketOpen: z.boolean(),
});
export type SimulatorPriceResponse = z.infer<typeof SimulatorPriceResponse>;
