import type { Decimal } from '@platform/domain';
import type { AccountStatement, StatementPeriod } from './account-statement.ts';

/** How the PDF and the XLSX statements write their figures, dates and headings (the same words in both). */

/**
 * An amount with `places` decimals, grouped by thousands. A statement prints every amount with the same number of
 * decimals: two, or more when the ledger holds finer amounts (statementDecimals), so nothing is rounded and the rows
 * add up to the totals as printed.
 */
export function moneyText(d: Decimal, places = 2): string {
  const [int, frac] = d.abs().toFixed(places).split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${d.isNegative() && !d.isZero() ? '-' : ''}${grouped}${frac ? `.${frac}` : ''}`;
}

/** The decimals a statement's amounts need: at least two, at most eight (the ledger's scale). */
export function statementDecimals(s: AccountStatement): number {
  let places = 2;
  const see = (d: Decimal) => {
    places = Math.max(places, Math.min(d.decimalPlaces(), 8));
  };
  [s.opening, s.closing, s.change, ...s.totals.map((x) => x.amount)].forEach(see);
  for (const m of s.movements) see(m.amount);
  for (const d of s.deals) [d.pl, d.swap, d.commission, d.net].forEach(see);
  if (s.equity) [s.equity.floatingPl, s.equity.equity].forEach(see);
  return places;
}

/** A rate as stored, without trailing zeros. */
export const rateText = (d: Decimal): string => d.toString();

/** 2025-03-14 09:30:05 (UTC, as every time in a statement). */
export const timeText = (d: Date): string => d.toISOString().slice(0, 19).replace('T', ' ');

export const sideText = (s: 'buy' | 'sell'): string => (s === 'buy' ? 'Buy' : 'Sell');

export const modeText = (mode: string): string => (mode === 'real' ? 'Real' : 'Demo');

export const instrumentText = (name: string): string => name.replace('_', '/');

/**
 * The period in words: "2025-01-01 to 2025-03-31 (UTC)"; a period reaching the present says up to when ("…, as of
 * 2026-11-26 04:33:06"), and one without a start covers every movement up to its end.
 */
export function periodText(p: StatementPeriod): string {
  const end = p.current
    ? p.dateEnd
      ? `${p.dateEnd}, as of ${timeText(p.to)}`
      : timeText(p.to)
    : (p.dateEnd ?? timeText(p.to));
  return p.dateStart ? `${p.dateStart} to ${end} (UTC)` : `All movements up to ${end} (UTC)`;
}

/** "USD Real wallet #12". */
export const walletText = (s: AccountStatement): string =>
  `${s.wallet.currency} ${modeText(s.wallet.mode)} wallet #${s.wallet.id}`;

/** The file's name: statement-{currency}-{mode}-{wallet}-{start}-{end}.{ext}. */
export function statementFileName(
  wallet: { id: number; currency: string; mode: string } | null,
  q: { dateStart?: string; dateEnd?: string },
  ext: 'csv' | 'pdf' | 'xlsx',
): string {
  const of = wallet ? `${wallet.currency}-${wallet.mode}-${wallet.id}-` : '';
  return `statement-${of}${q.dateStart ?? 'all'}-${q.dateEnd ?? 'now'}.${ext}`;
}

export const DEAL_HEADINGS = [
  'Deal',
  'Instrument',
  'Side',
  'Amount',
  'Open time',
  'Open price',
  'Close time',
  'Close price',
  'P/L',
  'Swap',
  'Commission',
  'Net',
  'Closed by',
] as const;

export const MOVEMENT_HEADINGS = ['Time', 'Entry', 'Type', 'Reference', 'Description', 'Amount', 'Balance'] as const;
