import { z } from 'zod';
import { Decimal } from '../money.ts';

// Amount fields shared by the money schemas (deposits, withdrawals, gateways, plans).

// ---------------------------------------------------------------------------------------------------------------
// Amounts

/** The largest single deposit, withdrawal or plan price the platform takes (a broker's sanity bound). */
export const MAX_MONEY_AMOUNT = 100_000_000;
/** Decimals a wallet amount may carry (cents). */
export const MONEY_DECIMALS = 2;

/**
 * An amount of money as typed: a number or a decimal string with at most `decimals` decimals, within [0, max] (above
 * 0 unless `zeroAllowed`). Out as a normalised decimal string, so the server never sees a float.
 */
function decimalAmount(required: string, opts: { max: number; decimals: number; zeroAllowed: boolean; noun: string }) {
  return z.union([z.string(), z.number()], { error: required }).transform((v, ctx) => {
    const fail = (message: string) => {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    };
    const s = String(v).trim();
    if (s === '') return fail(required);
    if (!/^\d{1,12}(\.\d+)?$/.test(s))
      return fail(opts.zeroAllowed ? 'Must be a number of 0 or more' : `${opts.noun} must be a positive number`);
    const d = new Decimal(s);
    if (d.decimalPlaces() > opts.decimals)
      return fail(
        opts.zeroAllowed
          ? `At most ${opts.decimals} decimals`
          : `${opts.noun} can have at most ${opts.decimals} decimals`,
      );
    if (!opts.zeroAllowed && d.lte(0)) return fail(`${opts.noun} must be greater than 0`);
    if (d.gt(opts.max))
      return fail(`${opts.zeroAllowed ? 'Must' : `${opts.noun} must`} be at most ${opts.max.toLocaleString('en-US')}`);
    return d.toFixed(opts.decimals);
  });
}

/** A positive amount of money: above 0, at most MAX_MONEY_AMOUNT, to the cent. */
export const moneyAmount = (required = 'Amount is required', max = MAX_MONEY_AMOUNT) =>
  decimalAmount(required, { max, decimals: MONEY_DECIMALS, zeroAllowed: false, noun: 'Amount' });

/** A fee or price that may be 0. */
export const nonNegativeMoney = (required: string, max = MAX_MONEY_AMOUNT, decimals = MONEY_DECIMALS) =>
  decimalAmount(required, { max, decimals, zeroAllowed: true, noun: 'Value' });

/** A percentage fee: 0 to 100, up to 4 decimals. */
export const percentField = (required: string) => nonNegativeMoney(required, 100, 4);

/** A positive database id field with one message for every refusal. */
export const idField = (message: string) =>
  z.coerce
    .number({ error: message })
    .int({ error: message })
    .positive({ error: message })
    .max(2_147_483_647, { error: message });

export const MONEY_STATUSES = ['pending', 'approved', 'declined'] as const;
export type MoneyStatus = (typeof MONEY_STATUSES)[number];
