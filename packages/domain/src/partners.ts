import { Decimal } from './money.ts';

/**
 * The commission a partner plan pays on one deal (docs/decisions.md "Partners"), in exact decimals:
 * base = per-lot amount × lots + spread share % × spread paid + commission share % × commission paid, the costs
 * converted to the plan's currency; each level receives its percent of the base, rounded half-up to the cent.
 */
export interface DealCommissionInput {
  /** The plan's amount per lot of the deal's instrument category, in the plan's currency. */
  perLot: Decimal.Value;
  lots: Decimal.Value;
  /** Percent of the spread and of the commission the client paid. */
  spreadShare: Decimal.Value;
  commissionShare: Decimal.Value;
  /** What the client paid on the deal, in the wallet's currency (positive). */
  spreadPaid: Decimal.Value;
  commissionPaid: Decimal.Value;
  /** Units of the plan's currency per unit of the wallet's (1 when they are the same). */
  toPlanCurrency: Decimal.Value;
}

export function dealCommissionBase(p: DealCommissionInput): Decimal {
  const rate = new Decimal(p.toPlanCurrency);
  const share = (percent: Decimal.Value, paid: Decimal.Value) =>
    Decimal.max(new Decimal(paid), 0).times(rate).times(percent).div(100);
  return new Decimal(p.perLot)
    .times(p.lots)
    .plus(share(p.spreadShare, p.spreadPaid))
    .plus(share(p.commissionShare, p.commissionPaid));
}

/** Each level's amount: its percent of the base, to the cent (half-up). Index 0 is level 1. */
export const levelAmounts = (base: Decimal.Value, levels: readonly Decimal.Value[]): Decimal[] =>
  levels.map((percent) => new Decimal(base).times(percent).div(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP));
