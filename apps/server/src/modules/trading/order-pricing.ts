import { Decimal, dec, type newOrderBounds, withinBounds, type Side } from '@platform/domain';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import type { InstrumentRow } from '../../market/instruments.ts';
import { rateUnavailable } from './market-info.service.ts';
import type { Trader } from './trader.ts';

/** What every order use case reads from the application. */
export type Ctx = Pick<AppContext, 'db' | 'market' | 'risk' | 'realtime'>;

/** The KYC-for-trade switch governs real money: demo wallets trade without verification. */
export const needsKyc = (kycRequired: boolean, trader: Trader): boolean =>
  kycRequired && trader.wallet.mode !== 'demo' && !trader.kycApproved;

/** A broker's cap on open positions per wallet, so one account cannot flood the engine. */
export const MAX_OPEN_POSITIONS = 200;
const DP = 8;
export const round = (d: Decimal, mode: Decimal.Rounding = Decimal.ROUND_HALF_EVEN) => d.toDecimalPlaces(DP, mode);
export const str = (d: Decimal) => d.toFixed(DP);

/** The instrument's current bid and ask as exact decimal strings at its precision, or a 503 without a price. */
export function quoteOf(ctx: Ctx, instrument: InstrumentRow): { bid: string; ask: string } {
  const q = ctx.market.book.get(instrument.name);
  if (!q) throw new AppError('NO_PRICE');
  return { bid: q.bid.toFixed(instrument.digits), ask: q.ask.toFixed(instrument.digits) };
}

export function conversionOf(ctx: Ctx, quote: string, walletCurrency: string): Decimal {
  const rate = ctx.market.conversionRate(quote, walletCurrency);
  if (!rate || !(rate > 0)) throw rateUnavailable(quote, walletCurrency);
  return dec(rate).toDecimalPlaces(DP);
}

export function tradableInstrument(ctx: Ctx, name: string): InstrumentRow {
  const instrument = ctx.market.instruments.byNameOf(name);
  if (!instrument) throw new AppError('INSTRUMENT_NOT_FOUND');
  if (!instrument.tradable) throw new AppError('NOT_TRADABLE');
  if (!ctx.market.isOpen(instrument.category)) throw new AppError('MARKET_CLOSED');
  return instrument;
}

const fmt = (d: Decimal | null) => (d === null ? '' : d.toString());
export function checkLevels(
  side: Side,
  bounds: ReturnType<typeof newOrderBounds>,
  profit: string | null | undefined,
  loss: string | null | undefined,
) {
  if (profit != null && !withinBounds(profit, bounds.takeProfit)) {
    const msg =
      bounds.takeProfit.max === null
        ? `Take profit must be at least ${fmt(bounds.takeProfit.min)}.`
        : `Take profit must be between ${fmt(bounds.takeProfit.min)} and ${fmt(bounds.takeProfit.max)}.`;
    throw new AppError('INVALID_TAKE_PROFIT', msg, { profit: msg });
  }
  if (loss != null && !withinBounds(loss, bounds.stopLoss)) {
    const msg =
      bounds.stopLoss.max === null
        ? `Stop loss must be at least ${fmt(bounds.stopLoss.min)}.`
        : `Stop loss must be between ${fmt(bounds.stopLoss.min)} and ${fmt(bounds.stopLoss.max)}.`;
    throw new AppError('INVALID_STOP_LOSS', msg, { loss: msg });
  }
  void side;
}
