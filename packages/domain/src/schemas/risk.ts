import { z } from 'zod';
import { CATEGORIES } from '../trading.ts';
import { PageMeta, PagedQuery, safeString } from './common.ts';

/** Accounts at risk (back office): wallets holding margin, lowest margin level first, live from the risk engine. */
export const RiskAccountsQuery = PagedQuery.pick({ page: true, limit: true }).extend({
  /** Real wallets by default (what the house's risk is); demo or every wallet on request. */
  mode: z.enum(['real', 'demo', 'all'], { error: 'Choose real, demo or all' }).default('real'),
});
export type RiskAccountsQuery = z.input<typeof RiskAccountsQuery>;

export const RiskAccountDto = z.object({
  wallet_id: z.number().int(),
  user_id: z.number().int(),
  name: z.string(),
  email: z.string(),
  currency: z.string(),
  mode: z.string(),
  /** Figures in the wallet's currency, as the engine holds them (2 decimals). */
  balance: z.number(),
  equity: z.number(),
  margin: z.number(),
  free_margin: z.number(),
  /** Percent; null without margin held (never listed). */
  margin_level: z.number().nullable(),
  positions: z.number().int(),
  /** Whether the wallet's margin call has fired and not re-armed yet. */
  margin_call: z.boolean(),
});
export type RiskAccountDto = z.infer<typeof RiskAccountDto>;

export const RiskAccountsResponse = z.object({ data: z.array(RiskAccountDto), meta: PageMeta });
export type RiskAccountsResponse = z.infer<typeof RiskAccountsResponse>;

// ---- exposure desk and limits ----------------------------------------------------------------------------------

/** Wallet modes the desk reads: real only by default (the house's money), demo or both on request. */
const DeskMode = z.enum(['real', 'demo', 'all'], { error: 'Choose real, demo or all' }).default('real');

/** GET /admin/risk/exposure: the clients' open positions per instrument, live from the risk engine. */
export const ExposureQuery = z.object({
  category: z.enum(CATEGORIES, { error: 'Unknown category' }).optional(),
  mode: DeskMode,
});
export type ExposureQuery = z.input<typeof ExposureQuery>;

export const ExposureRow = z.object({
  instrument: z.string(),
  category: z.string(),
  /** Units of the base (what a position's trade amount counts), summed over the clients' buys and sells. */
  long_volume: z.number(),
  short_volume: z.number(),
  /** Long − short: positive, the clients are long and the house short. */
  net_volume: z.number(),
  /** Volume-weighted open prices; null without positions on that side. */
  long_avg_price: z.number().nullable(),
  short_avg_price: z.number().nullable(),
  /** The clients' floating P/L at the last quote, in the site currency (the house's is its opposite). */
  client_floating_pl: z.number(),
  positions: z.number().int(),
  /** Net volume sampled over the day (oldest first), for the sparkline. */
  net_history: z.array(z.number()),
  /** The net limit that applies (instrument or category), or null. */
  max_net_volume: z.number().nullable(),
});
export type ExposureRow = z.infer<typeof ExposureRow>;

export const ExposureResponse = z.object({
  data: z.array(ExposureRow),
  /** Sums over the rows, in the site currency. */
  totals: z.object({ client_floating_pl: z.number(), positions: z.number().int() }),
  currency: z.string(),
  /** When the figures were read (ms since the epoch). */
  at: z.number(),
});
export type ExposureResponse = z.infer<typeof ExposureResponse>;

/** GET /admin/risk/top-clients: the clients ranked by floating P/L, volume or exposure. */
export const TopClientsQuery = z.object({
  by: z.enum(['pl', 'volume', 'exposure'], { error: 'Choose pl, volume or exposure' }).default('pl'),
  mode: DeskMode,
  limit: z.coerce.number().int().min(1).max(50).default(10),
});
export type TopClientsQuery = z.input<typeof TopClientsQuery>;

export const TopClientRow = z.object({
  user_id: z.number().int(),
  name: z.string(),
  email: z.string(),
  /** Floating P/L in the site currency. */
  floating_pl: z.number(),
  /** Gross notional of the open positions (Σ |amount × price|) in the site currency. */
  volume: z.number(),
  /** |Σ signed notional|: how much the client is long or short overall, in the site currency. */
  exposure: z.number(),
  positions: z.number().int(),
});
export type TopClientRow = z.infer<typeof TopClientRow>;

export const TopClientsResponse = z.object({ data: z.array(TopClientRow), currency: z.string() });
export type TopClientsResponse = z.infer<typeof TopClientsResponse>;

/** A calendar day as YYYY-MM-DD that exists (2026-02-31 does not). */
const dateText = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Use a date as YYYY-MM-DD' })
  .refine(
    (d) => {
      const t = new Date(`${d}T00:00:00Z`);
      return !Number.isNaN(t.getTime()) && t.toISOString().slice(0, 10) === d;
    },
    { error: 'Not a date' },
  );

/** GET /admin/risk/realised: the house's realised P/L from the ledger, today and over a period (UTC days). */
export const RealisedQuery = z
  .object({ from: dateText.optional(), to: dateText.optional(), mode: DeskMode })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { error: 'The start must not be after the end', path: ['to'] })
  .refine((q) => !q.from || !q.to || Date.parse(q.to) - Date.parse(q.from) <= 366 * 86_400_000, {
    error: 'At most one year',
    path: ['to'],
  });
export type RealisedQuery = z.input<typeof RealisedQuery>;

const RealisedFigures = z.object({
  /** The house's result: the opposite of the clients' trade P/L, spread, commission and swap. */
  house_pl: z.number(),
  trade_pl: z.number(),
  spread: z.number(),
  commission: z.number(),
  swap: z.number(),
});
export const RealisedResponse = z.object({
  currency: z.string(),
  today: RealisedFigures,
  period: RealisedFigures.extend({ from: z.string(), to: z.string() }),
});
export type RealisedResponse = z.infer<typeof RealisedResponse>;

const volume = (what: string) =>
  z.coerce
    .number({ error: `${what} must be a number` })
    .positive({ error: `${what} must be above 0` })
    .max(1e12, { error: `${what} is too large` })
    .nullable();

/** The figures of one limit. */
export const RiskLimitFigures = z.object({
  /** Most the clients may be net long or short on the instrument, in units (null: no limit). */
  maxNetVolume: volume('Max net volume').default(null),
  /** Most one client's order may open on the instrument, in units (null: no limit). */
  maxPositionVolume: volume('Max position volume').default(null),
  /** Staff are told when the net reaches this percent of maxNetVolume. */
  warnPercent: z.coerce
    .number({ error: 'Warn percent must be a number' })
    .int({ error: 'Warn percent must be a whole number' })
    .min(1, { error: 'Warn percent must be between 1 and 100' })
    .max(100, { error: 'Warn percent must be between 1 and 100' })
    .default(80),
});

/** One limit: for an instrument (by name) or for every instrument of a category without its own. */
export const RiskLimitInput = RiskLimitFigures.extend({
  instrument: safeString(40).optional(),
  category: z.enum(CATEGORIES, { error: 'Unknown category' }).optional(),
}).refine((l) => (l.instrument ? 1 : 0) + (l.category ? 1 : 0) === 1, {
  error: 'Give either an instrument or a category',
  path: ['instrument'],
});
export type RiskLimitInput = z.input<typeof RiskLimitInput>;

const MAX_LIMITS = 1000;
const limitList = z.array(RiskLimitInput).max(MAX_LIMITS, { error: `At most ${MAX_LIMITS} limits` });

/** The whole set keyed by instrument and by category, as GET answers it beside the list. */
export const RiskLimitsByTarget = z
  .strictObject({
    instruments: z.record(safeString(40), RiskLimitFigures).optional(),
    categories: z.partialRecord(z.enum(CATEGORIES, { error: 'Unknown category' }), RiskLimitFigures).optional(),
  })
  .refine((m) => m.instruments !== undefined || m.categories !== undefined, {
    error: 'Give instruments or categories',
  })
  .refine((m) => Object.keys(m.instruments ?? {}).length <= MAX_LIMITS, { error: `At most ${MAX_LIMITS} limits` });

/**
 * PUT /admin/risk/limits: the whole set, as `{limits: [...]}`, a bare list, or `{instruments: {EUR_USD: {...}},
 * categories: {forex: {...}}}`; or one limit alone, which adds or replaces that one (both maxima null removes it).
 */
export const RiskLimitsUpdate = z.union([
  z.strictObject({ limits: limitList }),
  limitList,
  RiskLimitsByTarget,
  RiskLimitInput,
]);
export type RiskLimitsUpdate = z.input<typeof RiskLimitsUpdate>;

export const RiskLimitDto = z.object({
  instrument: z.string().nullable(),
  category: z.string().nullable(),
  maxNetVolume: z.number().nullable(),
  maxPositionVolume: z.number().nullable(),
  warnPercent: z.number().int(),
});
export type RiskLimitDto = z.infer<typeof RiskLimitDto>;

const LimitFiguresDto = z.object({
  maxNetVolume: z.number().nullable(),
  maxPositionVolume: z.number().nullable(),
  warnPercent: z.number().int(),
});
export const RiskLimitsResponse = z.object({
  data: z.array(RiskLimitDto),
  /** The same limits keyed by instrument name and by category. */
  instruments: z.record(z.string(), LimitFiguresDto),
  categories: z.record(z.string(), LimitFiguresDto),
  message: z.string().optional(),
});
export type RiskLimitsResponse = z.infer<typeof RiskLimitsResponse>;
