import { z } from 'zod';
import { IdParam, MoneyString, PagedQuery, paged } from './common.ts';
import { StatementsQuery } from './trading.ts';

/**
 * Account statements (PDF, XLSX, CSV) and stop-out reports: what a client reads under Statements and staff read on
 * the customer's page.
 */

/** The longest period one statement covers. */
export const STATEMENT_MAX_DAYS = 5 * 366;

const optionalId = z
  .literal('')
  .transform(() => undefined)
  .or(IdParam.shape.id)
  .optional();

/**
 * GET /statements/export and /admin/customers/{id}/statement: the wallet (the active one when absent), the period
 * (whole UTC days, dateStart ≤ dateEnd, at most five years) and the file: csv (closed trades), pdf or xlsx (the
 * account statement).
 */
export const StatementExportQuery = StatementsQuery.omit({ page: true, limit: true, search: true }).superRefine(
  (q, ctx) => {
    if (!q.dateStart || !q.dateEnd) return;
    if (q.dateStart > q.dateEnd) {
      ctx.addIssue({ code: 'custom', path: ['dateEnd'], message: 'The start date must not be after the end date.' });
      return;
    }
    const days = (Date.parse(q.dateEnd) - Date.parse(q.dateStart)) / 86_400_000 + 1;
    if (days > STATEMENT_MAX_DAYS)
      ctx.addIssue({ code: 'custom', path: ['dateEnd'], message: 'A statement covers at most 5 years.' });
  },
);
export type StatementExportQuery = z.output<typeof StatementExportQuery>;

/** GET /statements/stopouts and /admin/customers/{id}/stopouts: newest first, optionally one wallet's. */
export const StopoutsQuery = PagedQuery.pick({ page: true, limit: true }).extend({ walletId: optionalId });
export type StopoutsQuery = z.output<typeof StopoutsQuery>;

/** A position a stop-out closed: its price and P/L in the wallet's currency. */
export const StopoutPositionDto = z.object({
  id: z.number().int(),
  instrument: z.string(),
  side: z.enum(['buy', 'sell']),
  amount: MoneyString,
  price: MoneyString,
  pl: MoneyString,
});
export type StopoutPositionDto = z.infer<typeof StopoutPositionDto>;

/** A stop-out: the figures at the decision, each position it closed, and the negative-balance-protection credit. */
export const StopoutReportDto = z.object({
  id: z.number().int(),
  wallet_id: z.number().int(),
  currency: z.string(),
  mode: z.string(),
  created_at: z.string(),
  margin_level: MoneyString,
  equity: MoneyString,
  balance: MoneyString,
  protection_credit: MoneyString,
  positions: z.array(StopoutPositionDto),
});
export type StopoutReportDto = z.infer<typeof StopoutReportDto>;
export const StopoutReportsResponse = paged(StopoutReportDto);
export type StopoutReportsResponse = z.infer<typeof StopoutReportsResponse>;
