import { z } from 'zod';
import { requiredString } from './common.ts';
import { MAX_PRICE } from './trading.ts';

/**
 * The trader's chart: indicators (one list per user, so they follow the trader to any device and instrument) and
 * drawings (per user and instrument). Both are chart coordinates, not money: plain numbers, bounded.
 */

// ---------------------------------------------------------------------------------------------------------------
// Indicators

export const INDICATOR_TYPES = ['sma', 'ema', 'bb', 'rsi', 'macd', 'stoch', 'atr'] as const;
export type IndicatorType = (typeof INDICATOR_TYPES)[number];
/** Most indicators on one chart: each draws one to three lines, and the oscillators a pane each. */
export const MAX_INDICATORS = 10;

const period = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label} must be a number` })
    .int({ error: `${label} must be a whole number` })
    .min(min, { error: `${label} must be at least ${min}` })
    .max(max, { error: `${label} must be at most ${max}` });

export const IndicatorConfig = z
  .discriminatedUnion(
    'type',
    [
      z.object({ type: z.literal('sma'), period: period('Period', 1, 500) }),
      z.object({ type: z.literal('ema'), period: period('Period', 1, 500) }),
      z.object({
        type: z.literal('bb'),
        period: period('Period', 2, 500),
        stdDev: z
          .number({ error: 'Deviations must be a number' })
          .min(0.1, { error: 'Deviations must be at least 0.1' })
          .max(10, { error: 'Deviations must be at most 10' }),
      }),
      z.object({ type: z.literal('rsi'), period: period('Period', 2, 200) }),
      z.object({
        type: z.literal('macd'),
        fast: period('Fast period', 1, 200),
        slow: period('Slow period', 2, 500),
        signal: period('Signal period', 1, 200),
      }),
      z.object({
        type: z.literal('stoch'),
        kPeriod: period('%K period', 1, 200),
        kSmooth: period('%K smoothing', 1, 50),
        dPeriod: period('%D period', 1, 50),
      }),
      z.object({ type: z.literal('atr'), period: period('Period', 1, 200) }),
    ],
    { error: 'Unknown indicator' },
  )
  .refine((c) => c.type !== 'macd' || c.fast < c.slow, {
    error: 'The fast period must be shorter than the slow one',
    path: ['fast'],
  });
export type IndicatorConfig = z.infer<typeof IndicatorConfig>;

/** What a new indicator starts with: the usual textbook settings. */
export const INDICATOR_DEFAULTS: { [T in IndicatorType]: Extract<IndicatorConfig, { type: T }> } = {
  sma: { type: 'sma', period: 20 },
  ema: { type: 'ema', period: 20 },
  bb: { type: 'bb', period: 20, stdDev: 2 },
  rsi: { type: 'rsi', period: 14 },
  macd: { type: 'macd', fast: 12, slow: 26, signal: 9 },
  stoch: { type: 'stoch', kPeriod: 14, kSmooth: 3, dPeriod: 3 },
  atr: { type: 'atr', period: 14 },
};

export const ChartSettings = z.object({
  indicators: z
    .array(IndicatorConfig)
    .max(MAX_INDICATORS, { error: `At most ${MAX_INDICATORS} indicators on a chart` }),
});
export type ChartSettings = z.infer<typeof ChartSettings>;

// ---------------------------------------------------------------------------------------------------------------
// Drawings

export const DRAWING_KINDS = ['hline', 'trend', 'range'] as const;
export type DrawingKind = (typeof DRAWING_KINDS)[number];
/** Most drawings a trader keeps on one instrument. */
export const MAX_DRAWINGS_PER_INSTRUMENT = 50;
/** Latest time a point may carry: 2100-01-01 (a chart scrolled far into the future stays well inside). */
export const MAX_CHART_TIME = 4_102_444_800;

/** One anchor: a bar's time (Unix seconds, UTC) and a price. */
export const ChartPoint = z.object({
  time: z
    .number({ error: 'Time must be a number' })
    .int({ error: 'Time must be whole seconds' })
    .min(0, { error: 'Time must not be negative' })
    .max(MAX_CHART_TIME, { error: 'Time is too far in the future' }),
  price: z
    .number({ error: 'Price must be a number' })
    .positive({ error: 'Price must be above zero' })
    .max(MAX_PRICE, { error: `Price must be at most ${MAX_PRICE}` }),
});
export type ChartPoint = z.infer<typeof ChartPoint>;

/** A horizontal line has one point (its time only says where it was placed); a trend line and a measure have two. */
// Arrays of a fixed length rather than tuples: zod's tuple code would join the web app's first load.
const points = (n: number, kind: string) =>
  z.array(ChartPoint).length(n, { error: `A ${kind} has ${n === 1 ? 'one point' : `${n} points`}` });
const SHAPES = [
  z.object({ kind: z.literal('hline'), points: points(1, 'horizontal line') }),
  z.object({ kind: z.literal('trend'), points: points(2, 'trend line') }),
  z.object({ kind: z.literal('range'), points: points(2, 'measure') }),
] as const;
const UNKNOWN_DRAWING = { error: 'Unknown drawing' };

/** PUT body: a drawing's new shape (its instrument stays). */
export const DrawingShape = z.discriminatedUnion('kind', [...SHAPES], UNKNOWN_DRAWING);
export type DrawingShape = z.infer<typeof DrawingShape>;

const symbol = requiredString('Symbol is required', 40);
export const DrawingCreateRequest = z.discriminatedUnion(
  'kind',
  [SHAPES[0].extend({ symbol }), SHAPES[1].extend({ symbol }), SHAPES[2].extend({ symbol })],
  UNKNOWN_DRAWING,
);
export type DrawingCreateRequest = z.infer<typeof DrawingCreateRequest>;

export const DrawingsQuery = z.object({ symbol });

export const DrawingDto = z.object({
  id: z.number().int(),
  symbol: z.string(),
  kind: z.enum(DRAWING_KINDS),
  points: z.array(ChartPoint),
  created_at: z.string(),
  updated_at: z.string(),
});
export type DrawingDto = z.infer<typeof DrawingDto>;
export const DrawingsResponse = z.object({ data: z.array(DrawingDto) });
export type DrawingsResponse = z.infer<typeof DrawingsResponse>;
export const DrawingResponse = z.object({ message: z.string(), drawing: DrawingDto });
export type DrawingResponse = z.infer<typeof DrawingResponse>;
