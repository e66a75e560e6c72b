import { Decimal } from './money.ts';
import type { CommissionBasis, CommissionCharge } from './schemas/money.ts';
import type { Category } from './trading.ts';

/**
 * Commissions of a pricing plan (issue "trading depth 2"): an amount in US dollars per lot, or per million US
 * dollars of notional, per instrument category, charged when a position opens, when it closes, or both (each time
 * the full figure for the amount dealt). The wallet pays it in its own currency at the deal's conversion rates.
 */

/**
 * Units in one lot, per category, until instruments carry contract sizes of their own: 100,000 of a currency, 100 of
 * a commodity (an ounce of gold, a barrel), one index contract, share or coin.
 */
export const LOT_UNITS: Record<Category, string> = {
  forex: '100000',
  commodity: '100',
  index: '1',
  stock: '1',
  crypto: '1',
};

/** Units in one lot of an instrument: its own contract size when staff set one, else its category's default. */
export function contractSizeOf(instrument: { category: Category; contractSize?: string | number | null }): Decimal {
  const own = instrument.contractSize;
  return new Decimal(own != null && new Decimal(own).gt(0) ? own : LOT_UNITS[instrument.category]);
}

/** An amount in units as lots of the instrument (for display: lots where the category trades in lots). */
export const lotsOf = (amount: Decimal.Value, instrument: Parameters<typeof contractSizeOf>[0]): Decimal =>
  new Decimal(amount).div(contractSizeOf(instrument));

/** The plan terms a commission is computed from. */
export interface CommissionTerms {
  /** US dollars per lot or per million of notional; 0 charges nothing. */
  rate: Decimal.Value;
  basis: CommissionBasis;
  charge: CommissionCharge;
}

/** Whether the plan charges at this moment of a position's life. */
export const chargesAt = (charge: CommissionCharge, moment: 'open' | 'close'): boolean =>
  charge === 'both' || charge === moment;

/**
 * The commission of dealing `amount` at `price`, in the wallet's currency, rounded half-even to 8 places as every
 * other figure of a deal. Conversions follow the order path's rule: a rate is units of the from-currency per unit of
 * the wallet currency (`quoteConversion` for the instrument's quote currency, `usdConversion` for US dollars).
 */
export function commissionOf(p: {
  terms: CommissionTerms;
  category: Category;
  /** The instrument's own units in one lot, if it has them (else the category's LOT_UNITS). */
  contractSize?: string | number | null;
  amount: Decimal.Value;
  price: Decimal.Value;
  quoteConversion: Decimal.Value;
  usdConversion: Decimal.Value;
}): Decimal {
  const rate = new Decimal(p.terms.rate);
  if (rate.isZero()) return new Decimal(0);
  const usd =
    p.terms.basis === 'lot'
      ? rate.times(p.amount).div(contractSizeOf({ category: p.category, contractSize: p.contractSize }))
      : // Notional in US dollars: amount × price in the quote currency, through the wallet currency.
        rate.times(new Decimal(p.amount).times(p.price).div(p.quoteConversion).times(p.usdConversion)).div(1_000_000);
  return usd.div(p.usdConversion).toDecimalPlaces(8, Decimal.ROUND_HALF_EVEN);
}
