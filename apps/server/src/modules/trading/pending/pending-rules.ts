import {
  dec,
  openOrderBounds,
  pendingOpenPrice,
  pendingPriceError,
  type ExpiryInput,
  type PendingKindName,
  type Side,
} from '@platform/domain';
import type { AppContext } from '../../../context.ts';
import { AppError, fieldError } from '../../../lib/errors.ts';
import { tradingDayEndAt } from '../../../market/hours.ts';
import type { InstrumentRow } from '../../../market/instruments.ts';
import { checkLevels, type Ctx } from '../order-pricing.ts';

/** What the pending-order use cases read from the application. */
export type PendingCtx = Ctx & Pick<AppContext, 'pending'>;

/** A broker's cap on waiting pending orders per wallet. */
export const MAX_PENDING_ORDERS = 200;
/** The furthest a dated expiry may be. */
const MAX_EXPIRY_MS = 366 * 24 * 3600_000;

/** The prices of a pending order against the current quote and its TP/SL against its own price; 400 when broken. */
export function checkPendingPrices(
  o: {
    side: Side;
    kind: PendingKindName;
    price: string;
    limitPrice: string | null;
    profit: string | null;
    loss: string | null;
  },
  quote: { bid: string; ask: string },
  activated = false,
): void {
  const err = pendingPriceError(o.side, o.kind, o.price, o.limitPrice, quote, activated);
  if (err) throw fieldError(err.field, err.message);
  try {
    checkLevels(o.side, openOrderBounds(o.side, pendingOpenPrice(o.kind, o.price, o.limitPrice)), o.profit, o.loss);
  } catch (err) {
    // The same bounds as a market order's, but here bad input of the order itself: a 400 on the field.
    const field = err instanceof AppError ? Object.keys(err.errors ?? {})[0] : undefined;
    if (err instanceof AppError && field) throw fieldError(field, err.message);
    throw err;
  }
}

/** An expiry as stored: gtc waits for ever, day until the instrument's trading day ends, a date until then. */
export function expiryOf(
  input: ExpiryInput,
  instrument: Pick<InstrumentRow, 'category'>,
  now = new Date(),
): { expiry: 'gtc' | 'day' | 'date'; expiresAt: Date | null } {
  if (input === 'gtc') return { expiry: 'gtc', expiresAt: null };
  if (input === 'day') return { expiry: 'day', expiresAt: tradingDayEndAt(now, instrument.category) };
  const at = new Date(input);
  if (!(at.getTime() > now.getTime())) throw fieldError('expiry', 'The expiry must be in the future.');
  if (at.getTime() - now.getTime() > MAX_EXPIRY_MS) throw fieldError('expiry', 'The expiry must be within a year.');
  return { expiry: 'date', expiresAt: at };
}

export const positiveAmount = (amount: string): string => {
  if (dec(amount).lte(0)) throw fieldError('amount', 'Amount must be greater than 0');
  return amount;
};
