import { z } from 'zod';
import { parseIsoDate } from './common.ts';

/**
 * Customer 360 in the back-office lists: what the customers list and the CRM lead lists show of a customer beside
 * the spec's columns (the main real wallet's balance and equity, the first deposit, the KYC status, the last sign-in
 * and the online dot), and the query parameters that sort and filter by them on the server.
 */

/**
 * A customer's KYC state as the lists show it: approved once any document was approved, else the state of the latest
 * submission, else none. Alphabetical order is the sort order (Approved, Declined, None, Pending).
 */
export const KYC_LIST_STATUSES = ['approved', 'declined', 'none', 'pending'] as const;
export type KycListStatus = (typeof KYC_LIST_STATUSES)[number];

/** Sort keys of the customer figures, on both lists. A row without the figure comes after those with it. */
export const CUSTOMER_360_SORTS = [
  'balance',
  'equity',
  'ftd_at',
  'ftd_amount',
  'kyc_status',
  'last_login_at',
  'online',
] as const;
export type Customer360Sort = (typeof CUSTOMER_360_SORTS)[number];
export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/** The figures of one customer (decimal strings for money; ISO times). */
export const Customer360 = z.object({
  /** The main real wallet (opened at sign-up); null when the customer has none. */
  wallet_id: z.number().nullable(),
  currency: z.string().nullable(),
  balance: z.string().nullable(),
  /** Balance plus the floating P/L of open positions, live from the risk engine at the time of the answer. */
  equity: z.string().nullable(),
  ftd_at: z.string().nullable(),
  ftd_amount: z.string().nullable(),
  ftd_currency: z.string().nullable(),
  kyc_status: z.enum(KYC_LIST_STATUSES),
  last_login_at: z.string().nullable(),
  online: z.boolean(),
});
export type Customer360 = z.infer<typeof Customer360>;

const yesNo = z.enum(['yes', 'no'], { error: 'Must be yes or no' });
/** An amount bound of a filter: a decimal as typed, kept as text so it is compared exactly. */
const amountBound = z
  .string()
  .trim()
  .regex(/^-?\d{1,14}(\.\d{1,8})?$/, { error: 'Enter an amount' });
const dayBound = z.string().refine((s) => parseIsoDate(s) !== null, { error: 'Enter a real date as YYYY-MM-DD' });

/**
 * Query parameters both lists take: `sort` and `dir` (default: the list's own order, newest first) and the filters.
 * Minimums above maximums, and a first-deposit range that ends before it starts, are refused by the server (400).
 */
export const Customer360Query = z.object({
  sort: z.enum(CUSTOMER_360_SORTS, { error: 'Unknown sort' }).optional(),
  dir: z.enum(SORT_DIRECTIONS, { error: 'Sort direction must be asc or desc' }).optional(),
  kyc: z.enum(KYC_LIST_STATUSES, { error: 'Unknown KYC status' }).optional(),
  /** Has made a first deposit (yes) or not (no). */
  ftd: yesNo.optional(),
  /** First deposit made on or after / on or before this day (UTC). */
  ftdFrom: dayBound.optional(),
  ftdTo: dayBound.optional(),
  balanceMin: amountBound.optional(),
  balanceMax: amountBound.optional(),
  equityMin: amountBound.optional(),
  equityMax: amountBound.optional(),
  online: yesNo.optional(),
});
export type Customer360Query = z.infer<typeof Customer360Query>;

/** The filter parameters of Customer360Query (everything but the sort). */
export const CUSTOMER_360_FILTERS = [
  'kyc',
  'ftd',
  'ftdFrom',
  'ftdTo',
  'balanceMin',
  'balanceMax',
  'equityMin',
  'equityMax',
  'online',
] as const;
export type Customer360Filters = Pick<Customer360Query, (typeof CUSTOMER_360_FILTERS)[number]>;
