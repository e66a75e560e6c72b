import { type Category, chargesAt, commissionOf, type Decimal, dec } from '@platform/domain';
import type { InstrumentRow } from '../../market/instruments.ts';
import { conversionOf, type Ctx } from './order-pricing.ts';
import { commissionTermsOf, type Plan, type Trader } from './trader.ts';

/**
 * What a deal pays its pricing plan in commission (the plan's terms for the instrument's category, in US dollars
 * converted to the wallet's currency; see commissionOf). The order statements charge it through the ledger and
 * check the plan's terms are still those it was priced with (commissionKeyOf).
 */

/** The commission a new position pays when it opens (0 when the plan charges none, or only at close). */
export function openCommission(
  ctx: Ctx,
  trader: Trader,
  instrument: InstrumentRow,
  amount: Decimal,
  price: Decimal,
  quoteConversion: Decimal,
): Decimal {
  const terms = commissionTermsOf(trader.plan, instrument.category);
  if (!terms || !chargesAt(terms.charge, 'open')) return dec(0);
  return commissionOf({
    terms,
    category: instrument.category,
    contractSize: instrument.contractSize,
    amount,
    price,
    quoteConversion,
    usdConversion: conversionOf(ctx, 'USD', trader.wallet.currency),
  });
}

/** The commission a close of `amount` at `price` pays (0 when the plan charges none, or only at open). */
export function closeCommission(
  ctx: Ctx,
  plan: Plan | null,
  instrument: { category: Category; contractSize: string | null },
  amount: Decimal.Value,
  price: Decimal.Value,
  quoteConversion: Decimal.Value,
  walletCurrency: string,
): Decimal {
  const terms = commissionTermsOf(plan, instrument.category);
  if (!terms || !chargesAt(terms.charge, 'close')) return dec(0);
  return commissionOf({
    terms,
    category: instrument.category,
    contractSize: instrument.contractSize,
    amount,
    price,
    quoteConversion,
    usdConversion: conversionOf(ctx, 'USD', walletCurrency),
  });
}
