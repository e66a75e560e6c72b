import { CATEGORIES, type Category, resolveLeverage } from './trading.ts';

/**
 * Retail protections (ESMA-style) of a pricing plan: the leverage of a retail plan's orders never exceeds the cap of
 * the instrument's class, and the plan closes positions out at a margin level of 50 % or above. The classes follow
 * ESMA's product intervention measures: major currency pairs, other pairs, gold and major indices, other commodities
 * and indices, single stocks, cryptocurrencies.
 */
export const RETAIL_CLASSES = [
  'forexMajor',
  'forexOther',
  'gold',
  'indexMajor',
  'commodity',
  'index',
  'stock',
  'crypto',
] as const;
export type RetailClass = (typeof RETAIL_CLASSES)[number];
export type RetailCaps = Record<RetailClass, number>;

/** The shipped caps (leverage 1:N): 30 majors, 20 other pairs, gold and major indices, 10 other, 5 stocks, 2 crypto. */
export const DEFAULT_RETAIL_CAPS: RetailCaps = {
  forexMajor: 30,
  forexOther: 20,
  gold: 20,
  indexMajor: 20,
  commodity: 10,
  index: 10,
  stock: 5,
  crypto: 2,
};

/** The lowest close-out (stop-out) level a retail plan may have, in percent. */
export const RETAIL_MIN_STOPOUT = 50;

/** ESMA's major currencies: a pair of two of them is a major. */
const MAJOR_CURRENCIES = new Set(['USD', 'EUR', 'JPY', 'GBP', 'CAD', 'CHF']);
/** Major indices (FTSE 100, CAC 40, DAX, Dow Jones, S&P 500, Nasdaq, Nikkei 225, ASX 200, Euro Stoxx 50), as symbols. */
const MAJOR_INDICES = new Set([
  'UK100',
  'FR40',
  'DE30',
  'DE40',
  'GER30',
  'GER40',
  'US30',
  'SPX500',
  'US500',
  'NAS100',
  'USTEC',
  'JP225',
  'AU200',
  'EU50',
]);

/** The retail class of an instrument from its category and symbols. */
export function retailClassOf(i: { category: Category; base: string; quote: string }): RetailClass {
  const base = i.base.toUpperCase();
  switch (i.category) {
    case 'forex':
      return MAJOR_CURRENCIES.has(base) && MAJOR_CURRENCIES.has(i.quote.toUpperCase()) ? 'forexMajor' : 'forexOther';
    case 'commodity':
      return base === 'XAU' || base === 'GOLD' ? 'gold' : 'commodity';
    case 'index':
      return MAJOR_INDICES.has(base) ? 'indexMajor' : 'index';
    default:
      return i.category;
  }
}

/** The classes a category's instruments can fall in (a plan's category leverage may not exceed the highest cap). */
export const RETAIL_CLASSES_OF: Record<Category, RetailClass[]> = {
  forex: ['forexMajor', 'forexOther'],
  commodity: ['gold', 'commodity'],
  index: ['indexMajor', 'index'],
  stock: ['stock'],
  crypto: ['crypto'],
};

/** The highest retail leverage any instrument of a category may have under the caps. */
export const retailCategoryCap = (caps: RetailCaps, category: Category): number =>
  Math.max(...RETAIL_CLASSES_OF[category].map((c) => caps[c]));

/** The caps a plan stores (JSON), or the shipped defaults when none or malformed (checked without zod: the trading
 * dashboard computes margins with this and must not load the schema library). */
export function retailCapsOf(stored: unknown): RetailCaps {
  if (!stored || typeof stored !== 'object') return { ...DEFAULT_RETAIL_CAPS };
  const caps = {} as RetailCaps;
  for (const c of RETAIL_CLASSES) {
    const n = Number((stored as Record<string, unknown>)[c]);
    if (!Number.isInteger(n) || n < 1 || n > 5000) return { ...DEFAULT_RETAIL_CAPS };
    caps[c] = n;
  }
  return caps;
}

/** The retail terms trading reads from a plan: null when the plan is not retail. */
export interface RetailTerms {
  retail: boolean;
  caps: RetailCaps;
}

/**
 * The leverage an order is margined at: the plan's category leverage, else the instrument's own, capped on a retail
 * plan at the cap of the instrument's class. Never below 1.
 */
export function effectiveLeverage(
  planLeverage: number | null | undefined,
  instrument: { category: Category; base: string; quote: string; leverage: number },
  retail: RetailTerms | null | undefined,
): number {
  const lev = resolveLeverage(planLeverage, instrument.leverage);
  const capped = retail?.retail ? Math.min(lev > 0 ? lev : 1, retail.caps[retailClassOf(instrument)]) : lev;
  return capped > 0 ? capped : 1;
}

/** A plan's terms as the retail rules check them (keys as in PricingPlanRequest). */
type PlanTerms = Partial<Record<`${Category}Leverage` | `${Category}Stopout`, number | null | undefined>>;

/**
 * What a retail plan's terms break: a category leverage above the highest cap of its classes, a stop-out below the
 * retail close-out. Field name and message per issue; none for a plan that is not retail.
 */
export function retailIssues(
  retail: boolean,
  caps: RetailCaps,
  terms: PlanTerms,
): Array<{ field: string; message: string }> {
  if (!retail) return [];
  const issues: Array<{ field: string; message: string }> = [];
  for (const category of CATEGORIES) {
    const lev = terms[`${category}Leverage`];
    const cap = retailCategoryCap(caps, category);
    if (lev != null && lev > cap)
      issues.push({ field: `${category}Leverage`, message: `A retail plan allows at most 1:${cap} on this category` });
    const stopout = terms[`${category}Stopout`];
    if (stopout != null && stopout > 0 && stopout < RETAIL_MIN_STOPOUT)
      issues.push({
        field: `${category}Stopout`,
        message: `A retail plan closes out at ${RETAIL_MIN_STOPOUT} % or above`,
      });
  }
  return issues;
}
