import { z } from 'zod';
import { PageMeta, PagedQuery } from './common.ts';

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
