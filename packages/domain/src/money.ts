import Decimal from 'decimal.js';

/** Money arithmetic: decimal, never float. Amounts cross the wire as strings. */
Decimal.set({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export { Decimal };

export type MoneyInput = Decimal.Value;

export const dec = (v: MoneyInput): Decimal => new Decimal(v);

/** Fixed decimals as a string, half-up: the form stored and shown. */
export function toFixed(v: MoneyInput, decimals = 2): string {
  return new Decimal(v).toFixed(decimals, Decimal.ROUND_HALF_UP);
}

/** A decimal string with at most `maxDecimals` decimals, or null when not a finite number. */
export function parseAmount(value: unknown, maxDecimals = 8): Decimal | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const s = String(value).trim();
  if (!/^-?\d+(\.\d+)?$/.test(s)) return null;
  const d = new Decimal(s);
  if (d.decimalPlaces() > maxDecimals) return null;
  return d;
}

const SYMBOLS: Record<string, string> = {
  USD: '$',
  EUR: '€',
  GBP: '£',
  JPY: '¥',
  CNH: '¥',
  CNY: '¥',
  CHF: 'CHF ',
  AUD: 'A$',
  CAD: 'C$',
  NZD: 'NZ$',
  TRY: '₺',
  INR: '₹',
  BTC: '₿',
  USDT: '₮',
  AED: 'AED ',
  ZAR: 'R',
  NGN: '₦',
};

export function currencySymbol(currency: string | null | undefined): string {
  if (!currency) return '';
  return SYMBOLS[currency.toUpperCase()] ?? `${currency.toUpperCase()} `;
}

/** "$1,234.50": two decimals with the currency symbol (client-area spec §9). */
export function formatMoney(amount: MoneyInput, currency?: string | null, decimals = 2): string {
  // Round first so a value that shows as zero never carries a minus sign.
  const d = new Decimal(new Decimal(amount).toFixed(decimals, Decimal.ROUND_HALF_UP));
  const [int, frac] = d.abs().toFixed(decimals).split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${d.isNegative() && !d.isZero() ? '-' : ''}${currencySymbol(currency)}${grouped}${frac ? '.' + frac : ''}`;
}
