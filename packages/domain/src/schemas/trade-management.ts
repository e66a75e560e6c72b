import { z } from 'zod';
import { Decimal } from '../money.ts';
import { CATEGORIES, type Category } from '../trading.ts';
import { PagedQuery, UNSAFE_TEXT_MESSAGE, isSafeText, paged, requiredString } from './common.ts';
import { LOT_STATES, LotOption, MAX_PRICE } from './trading.ts';

/**
 * Back office "Trade Management" (back-office spec §2, §3, §5, §7): Trade APIs, spread settings, lot settings and
 * instruments. Every payload here is validated by the server and, with the same schema, by the screen's form.
 */

// ---------------------------------------------------------------------------------------------------------------
// Trade APIs: the external data-provider settings records (key with value1..value5)

export const API_SETTING_KEYS = ['polygonAPI', 'eodAPI', 'oandaAPI', 'currencyAPI', 'voiso'] as const;
export type ApiSettingKey = (typeof API_SETTING_KEYS)[number];

/** The provider's name as cards and the "{api key name} updated successfully" message show it. */
export const API_SETTING_NAMES: Record<ApiSettingKey, string> = {
  polygonAPI: 'Polygon',
  eodAPI: 'EOD Historical Data',
  oandaAPI: 'Oanda',
  currencyAPI: 'Currency API',
  voiso: 'Voiso',
};

/** Oanda's account modes: practice ("fxpractice", the switch on) or live ("fxtrade"). */
export const OANDA_MODES = ['fxpractice', 'fxtrade'] as const;

export const ApiSettingParam = z.object({ key: z.enum(API_SETTING_KEYS, { error: 'Unknown API setting' }) });

const apiKeyField = () => requiredString('API Key is required', 255);

/** PUT /admin/apis/polygonAPI: value1 API key. */
export const PolygonApiRequest = z.object({ key: z.literal('polygonAPI'), value1: apiKeyField() });
/** PUT /admin/apis/eodAPI: value1 API key. */
export const EodApiRequest = z.object({ key: z.literal('eodAPI'), value1: apiKeyField() });
/** PUT /admin/apis/oandaAPI: value1 account number, value2 API key, value3 practice or live. */
export const OandaApiRequest = z.object({
  key: z.literal('oandaAPI'),
  value1: requiredString('Account Number is required', 64),
  value2: apiKeyField(),
  value3: z.enum(OANDA_MODES, { error: 'Choose practice or live mode' }).default('fxpractice'),
});
/** PUT /admin/apis/currencyAPI: value1 API key; value2/value3 (quota) are kept by the server and ignored here. */
export const CurrencyApiRequest = z.object({ key: z.literal('currencyAPI'), value1: apiKeyField() });
/** PUT /admin/apis/voiso: value1 cluster id, value2 API key. */
export const VoisoApiRequest = z.object({
  key: z.literal('voiso'),
  value1: requiredString('Cluster ID is required', 255),
  value2: apiKeyField(),
});

/** The body of PUT /admin/apis/{key}, chosen by its `key`; fields a provider does not use are ignored. */
export const ApiSettingUpdateRequest = z.discriminatedUnion(
  'key',
  [PolygonApiRequest, EodApiRequest, OandaApiRequest, CurrencyApiRequest, VoisoApiRequest],
  { error: 'Key is required' },
);
export type ApiSettingUpdateRequest = z.input<typeof ApiSettingUpdateRequest>;

/** The schema of one provider's form. */
export const API_SETTING_SCHEMAS = {
  polygonAPI: PolygonApiRequest,
  eodAPI: EodApiRequest,
  oandaAPI: OandaApiRequest,
  currencyAPI: CurrencyApiRequest,
  voiso: VoisoApiRequest,
} as const satisfies Record<ApiSettingKey, z.ZodType>;

export const ApiSettingDto = z.object({
  key: z.enum(API_SETTING_KEYS),
  value1: z.string().nullable(),
  value2: z.string().nullable(),
  value3: z.string().nullable(),
  value4: z.string().nullable(),
  value5: z.string().nullable(),
  updated_at: z.string().nullable(),
});
export type ApiSettingDto = z.infer<typeof ApiSettingDto>;

/** GET /admin/apis: the five records, in the order of API_SETTING_KEYS. */
export const ApiSettingsResponse = z.array(ApiSettingDto);
export type ApiSettingsResponse = z.infer<typeof ApiSettingsResponse>;

// ---------------------------------------------------------------------------------------------------------------
// Numbers typed into forms: accepted as JSON numbers or decimal strings, kept as exact decimal strings

/** A number without exponent notation ("0.0000001", not "1e-7"), or '' for anything that is not a finite number. */
const plainNumber = (v: number): string => (Number.isFinite(v) ? new Decimal(v).toFixed() : '');

/**
 * Where a field has several issues, the first is the one shown (server and form alike), so checks run in the order
 * the messages should win.
 *
 * A required decimal of at least 0 with at most 8 decimals, as a string. `required` is the message for a missing or
 * empty value (the spec's "Forex spread is required").
 */
export const nonNegativeDecimal = (required: string, max = 1_000_000) =>
  z
    .union([z.number({ error: required }), z.string({ error: required })], { error: required })
    .transform((v) => (typeof v === 'number' ? plainNumber(v) : v.trim()))
    .pipe(
      z
        .string()
        .min(1, { error: required })
        .refine((s) => !s.startsWith('-'), { error: 'Must be 0 or more' })
        .regex(/^\d+(\.\d{1,8})?$/, { error: 'Enter a number with at most 8 decimals' })
        .refine((s) => Number(s) <= max, { error: `Must be at most ${max}` }),
    );

// ---------------------------------------------------------------------------------------------------------------
// Spread settings: spread_{category}.value1, the multiplier of the quoted spread charged per trade (client spec §9)

export const SPREAD_KEYS = [
  'spread_forex',
  'spread_commodity',
  'spread_index',
  'spread_crypto',
  'spread_stock',
] as const;
export type SpreadKey = (typeof SPREAD_KEYS)[number];

/** POST /admin/spreads: all five required, each a number of at least 0. */
export const SpreadsRequest = z.object({
  spread_forex: nonNegativeDecimal('Forex spread is required'),
  spread_commodity: nonNegativeDecimal('Commodity spread is required'),
  spread_index: nonNegativeDecimal('Index spread is required'),
  spread_crypto: nonNegativeDecimal('Crypto spread is required'),
  spread_stock: nonNegativeDecimal('Stock spread is required'),
});
export type SpreadsRequest = z.input<typeof SpreadsRequest>;

/** GET /admin/spreads: the current value1 of each record ('1' when a record is missing). */
export const SpreadsResponse = z.object({
  spread_forex: z.string(),
  spread_commodity: z.string(),
  spread_index: z.string(),
  spread_crypto: z.string(),
  spread_stock: z.string(),
});
export type SpreadsResponse = z.infer<typeof SpreadsResponse>;

// ---------------------------------------------------------------------------------------------------------------
// Lot settings: lot_{category}.value1 (lot or amount) and the lotSelector presets (JSON list in value1)

export const LOT_KEYS = ['lot_forex', 'lot_commodity', 'lot_index', 'lot_stock', 'lot_crypto'] as const;
export type LotKey = (typeof LOT_KEYS)[number];

const lotMode = z.enum(LOT_STATES, { error: 'Choose lot or amount' });

/** POST /admin/lots: the mode of every category. */
export const LotModesRequest = z.object({
  lot_forex: lotMode,
  lot_commodity: lotMode,
  lot_index: lotMode,
  lot_stock: lotMode,
  lot_crypto: lotMode,
});
export type LotModesRequest = z.input<typeof LotModesRequest>;

/** A form's number: '' is no value (undefined), other text is parsed (NaN when it is not a number). */
const toNumber = (v: number | string): number | undefined =>
  typeof v === 'number' ? v : v.trim() === '' ? undefined : Number(v.trim());

/** A preset's size in units: a JSON number or a numeric string from a form, greater than 0. */
const presetValue = z
  .union([z.number({ error: 'Value is required' }), z.string({ error: 'Value is required' })], {
    error: 'Value is required',
  })
  .transform(toNumber)
  .pipe(
    z
      .number({ error: (iss) => (iss.input === undefined ? 'Value is required' : 'Value must be a number') })
      .positive({ error: 'Value must be greater than 0' })
      .max(1_000_000_000, { error: 'Value must be at most 1000000000' }),
  );

export const LotPresetInput = z.object({ label: requiredString('Label is required', 60), value: presetValue });

/**
 * POST /admin/lotSelector: the presets the order dialog offers in lot mode, in this order. Without a category (the
 * spec's call) the forex presets, each value in units of the currency (100000 = one standard lot); with a category
 * other than forex, that category's presets, each value in lots of the instrument traded (its contract size).
 */
export const LotSelectorRequest = z.object({
  category: z.enum(CATEGORIES, { error: 'Unknown category' }).optional(),
  lotSelector: z
    .array(LotPresetInput, { error: 'Add at least one preset' })
    .min(1, { error: 'Add at least one preset' })
    .max(20, { error: 'At most 20 presets' }),
});
export type LotSelectorRequest = z.input<typeof LotSelectorRequest>;

/** GET /admin/lots: modes and presets as stored. */
export const LotSettingsResponse = z.object({
  modes: z.object({
    lot_forex: z.enum(LOT_STATES),
    lot_commodity: z.enum(LOT_STATES),
    lot_index: z.enum(LOT_STATES),
    lot_stock: z.enum(LOT_STATES),
    lot_crypto: z.enum(LOT_STATES),
  }),
  lotSelector: z.array(LotOption),
  /** The presets of the other categories, each value in lots (the forex ones are lotSelector, in units). */
  categoryPresets: z.partialRecord(z.enum(CATEGORIES), z.array(LotOption)).optional(),
});
export type LotSettingsResponse = z.infer<typeof LotSettingsResponse>;

// ---------------------------------------------------------------------------------------------------------------
// Swap settings: swap_{category}.value1 the triple-swap weekday (or none), value2 whether weekends are charged

export const SWAP_WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type SwapWeekday = (typeof SWAP_WEEKDAYS)[number];
export const TRIPLE_SWAP_DAYS = [...SWAP_WEEKDAYS, 'none'] as const;
export type TripleSwapDay = (typeof TRIPLE_SWAP_DAYS)[number];

/**
 * The shipped calendar: forex and commodities pay three days on Wednesday (spot settles two days later, over the
 * weekend), indices and stocks on Friday; crypto pays every calendar day, weekends included, never triple.
 */
export const DEFAULT_SWAP_CALENDAR: Record<Category, { tripleSwapDay: TripleSwapDay; weekends: boolean }> = {
  forex: { tripleSwapDay: 'wednesday', weekends: false },
  commodity: { tripleSwapDay: 'wednesday', weekends: false },
  index: { tripleSwapDay: 'friday', weekends: false },
  stock: { tripleSwapDay: 'friday', weekends: false },
  crypto: { tripleSwapDay: 'none', weekends: true },
};

const tripleDay = z
  .string({ error: 'Choose a weekday or none' })
  .trim()
  .toLowerCase()
  .pipe(z.enum(TRIPLE_SWAP_DAYS, { error: 'Choose a weekday or none' }));
const perCategory = <T extends z.ZodType>(field: T) =>
  z.object({ forex: field, commodity: field, index: field, stock: field, crypto: field });

/**
 * POST /admin/swaps: per category, the weekday whose rollover charges three days (`none`: never) and whether the
 * rollovers of Saturday and Sunday charge too (crypto's default). Omitted categories keep their setting.
 */
export const SwapSettingsRequest = z.object({
  tripleSwapDay: perCategory(tripleDay.optional()).partial().optional(),
  weekends: perCategory(z.boolean({ error: 'Choose on or off' }).optional())
    .partial()
    .optional(),
});
export type SwapSettingsRequest = z.input<typeof SwapSettingsRequest>;

/** GET /admin/swaps: every category's calendar as the rollover reads it. */
export const SwapSettingsResponse = z.object({
  tripleSwapDay: perCategory(z.enum(TRIPLE_SWAP_DAYS)),
  weekends: perCategory(z.boolean()),
});
export type SwapSettingsResponse = z.infer<typeof SwapSettingsResponse>;

// ---------------------------------------------------------------------------------------------------------------
// Instruments

export const InstrumentTypeParam = z.object({ type: z.enum(CATEGORIES, { error: 'Unknown instrument type' }) });

/** A symbol part typed by staff: trimmed, upper-cased, letters, digits and a few separators. */
const symbolField = (required: string, max: number, pattern: RegExp, hint: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, { error: required })
    .max(max, { error: `Must be at most ${max} characters` })
    .toUpperCase()
    .regex(pattern, { error: hint });

/** An optional price: '' or null means none. */
const optionalPrice = (label: string) =>
  z
    .union([z.number(), z.string(), z.null()], { error: `${label} must be a number` })
    .optional()
    .transform((v) =>
      v === null || v === undefined ? null : typeof v === 'number' ? plainNumber(v) || 'x' : v.trim() || null,
    )
    .pipe(
      z
        .string()
        .regex(/^\d+(\.\d{1,8})?$/, { error: `${label} must be a positive number with at most 8 decimals` })
        .refine((s) => Number(s) > 0, { error: `${label} must be greater than 0` })
        .refine((s) => Number(s) <= MAX_PRICE, { error: `${label} must be at most ${MAX_PRICE}` })
        .nullable(),
    );

const leverageField = z
  .union([z.number({ error: 'Leverage is required' }), z.string({ error: 'Leverage is required' })], {
    error: 'Leverage is required',
  })
  .transform(toNumber)
  .pipe(
    z
      .number({ error: (iss) => (iss.input === undefined ? 'Leverage is required' : 'Leverage must be a number') })
      .int({ error: 'Leverage must be a whole number' })
      .min(0, { error: 'Leverage must be 0 or more' })
      .max(10_000, { error: 'Leverage must be at most 10000' }),
  );

/**
 * A swap rate: percent a year of the position's opening value, added to the wallet at each rollover (MT5's sign:
 * negative is charged to the client, positive credited). Between -100 and 100 with at most 4 decimals.
 */
const swapText = (label: string) =>
  z
    .string()
    .regex(/^-?\d+(\.\d{1,4})?$/, { error: `${label} must be a number with at most 4 decimals` })
    .refine((s) => Math.abs(Number(s)) <= 100, { error: `${label} must be between -100 and 100` });
/** A typed rate as text ('x' for a number that cannot be written plainly), or null when missing or empty. */
const rateText = (v: number | string | null | undefined): string | null =>
  v === null || v === undefined ? null : typeof v === 'number' ? plainNumber(v) || 'x' : v.trim() || null;
const rateInput = (label: string) =>
  z.union([z.number(), z.string(), z.null()], { error: `${label} must be a number` }).optional();

/** The spec's swap: default 0. */
const swapField = rateInput('Swap')
  .transform((v) => rateText(v) ?? '0')
  .pipe(swapText('Swap'));
/** A side's own rate, or null: it takes the swap. */
const sideSwapField = (label: string) => rateInput(label).transform(rateText).pipe(swapText(label).nullable());

/** A contract size: a positive number with at most 8 decimals below 10^12, or null (the category's default). */
const contractSizeField = z
  .union([z.number(), z.string(), z.null()], { error: 'Contract size must be a number' })
  .optional()
  .transform(rateText)
  .pipe(
    z
      .string()
      .regex(/^\d{1,12}(\.\d{1,8})?$/, { error: 'Contract size must be a positive number with at most 8 decimals' })
      .refine((v) => Number(v) > 0, { error: 'Contract size must be greater than 0' })
      .nullable(),
  );

/** True when bid and ask have no issues of their own (the cross-field rules can then read them). */
function pricesParsed(payload: {
  value: unknown;
  issues: ReadonlyArray<{ path?: ReadonlyArray<PropertyKey> }>;
}): boolean {
  const v = payload.value;
  if (!v || typeof v !== 'object' || !('bids' in v) || !('asks' in v)) return false;
  return !payload.issues.some((i) => i.path?.[0] === 'bids' || i.path?.[0] === 'asks');
}

/**
 * POST /admin/instruments and PUT /admin/instruments/{id} (back-office spec §3, §5): name, base, quote, category,
 * tradingview, leverage and tradable are required; bids, asks and alias are optional. Bid and ask go together and
 * set the instrument's price (the simulated feed starts from it); on edit leaving both empty keeps the live price.
 */
export const InstrumentRequest = z
  .object({
    name: symbolField(
      'Name is required',
      40,
      /^[A-Z0-9][A-Z0-9_.\-/]*$/,
      'Use letters, digits and underscores, e.g. EUR_USD',
    ),
    base: symbolField('Base is required', 20, /^[A-Z0-9][A-Z0-9.-]*$/, 'Use letters and digits, e.g. EUR'),
    quote: symbolField('Quote is required', 20, /^[A-Z0-9][A-Z0-9.-]*$/, 'Use letters and digits, e.g. USD'),
    category: z.enum(CATEGORIES, { error: 'Category is required' }),
    bids: optionalPrice('Bid'),
    asks: optionalPrice('Ask'),
    tradingview: requiredString('Chart provider is required', 40),
    alias: z
      .string()
      .trim()
      .max(80, { error: 'Must be at most 80 characters' })
      .refine(isSafeText, { error: UNSAFE_TEXT_MESSAGE })
      .optional()
      .nullable()
      .transform((v) => v || null),
    leverage: leverageField,
    tradable: z.boolean({ error: 'Tradable is required' }),
    /** The spec's single swap: the rate of both sides unless swapLong / swapShort say otherwise. */
    swap: swapField,
    swapLong: sideSwapField('Swap long'),
    swapShort: sideSwapField('Swap short'),
    /** Units in one lot (100,000 of a currency, 100 oz of gold); empty or null: the category's default. */
    contractSize: contractSizeField,
  })
  // Checked even while other fields are still missing (the form shows it as soon as a price is typed), once both
  // prices parsed on their own. (No check above may use `abort`: an aborted issue would skip these.)
  .refine((v) => v.bids === null || v.asks !== null, {
    path: ['asks'],
    error: 'Enter both bid and ask, or neither',
    when: pricesParsed,
  })
  .refine((v) => v.asks === null || v.bids !== null, {
    path: ['bids'],
    error: 'Enter both bid and ask, or neither',
    when: pricesParsed,
  })
  .refine((v) => v.bids === null || v.asks === null || Number(v.asks) >= Number(v.bids), {
    path: ['asks'],
    error: 'Ask must not be below bid',
    when: pricesParsed,
  });
export type InstrumentRequest = z.input<typeof InstrumentRequest>;
export type InstrumentInput = z.output<typeof InstrumentRequest>;

/** One instrument as the back-office list shows it; bids/asks are the live quote when there is one. */
export const AdminInstrumentDto = z.object({
  id: z.number().int(),
  name: z.string(),
  base: z.string(),
  quote: z.string(),
  alias: z.string().nullable(),
  category: z.enum(CATEGORIES),
  tradingview: z.string(),
  leverage: z.number().int(),
  tradable: z.boolean(),
  swap: z.string(),
  /** Percent a year of a long / short position's opening value added at each rollover (negative: charged). */
  swap_long: z.string(),
  swap_short: z.string(),
  swapLong: z.string(),
  swapShort: z.string(),
  digits: z.number().int(),
  /** The instrument's own contract size (units in one lot), null for the category's default. */
  contract_size: z.string().nullable(),
  bids: z.string().nullable(),
  asks: z.string().nullable(),
  open_positions: z.number().int(),
  created_at: z.string(),
});
export type AdminInstrumentDto = z.infer<typeof AdminInstrumentDto>;

export const AdminInstrumentsQuery = PagedQuery;
export const AdminInstrumentListResponse = paged(AdminInstrumentDto);
export type AdminInstrumentListResponse = z.infer<typeof AdminInstrumentListResponse>;

export const AdminInstrumentResponse = z.object({ message: z.string(), instrument: AdminInstrumentDto });
export type AdminInstrumentResponse = z.infer<typeof AdminInstrumentResponse>;

/** Chart providers offered in the instrument form (free text is accepted too). */
export const CHART_PROVIDERS = ['OANDA', 'FX', 'COINBASE', 'BINANCE', 'NASDAQ', 'NYSE', 'TVC', 'CAPITALCOM'] as const;

/** Decimal places a new instrument's prices get when the form gives none: JPY pairs 3, other forex 5, the rest 2. */
export function defaultDigits(category: Category, quote: string): number {
  if (category === 'forex') return quote.toUpperCase() === 'JPY' ? 3 : 5;
  return 2;
}

/** Decimal places of a decimal string ('1.0850' → 4). */
export const decimalsOf = (s: string | null | undefined): number => (s && s.includes('.') ? s.split('.')[1].length : 0);
