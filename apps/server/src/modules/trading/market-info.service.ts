import { and, asc, eq } from 'drizzle-orm';
import {
  contractSizeOf,
  dec,
  type Category,
  type FavoriteDto,
  type LotStateResponse,
  type RateResponse,
} from '@platform/domain';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { favorites, instruments } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { isUniqueViolation } from '../../lib/errors.ts';
import { lotModeOf, presetsFor } from './lot-rules.ts';
import { loadTrader, tradingSettings } from './trader.ts';

/** A 503 that names the two currencies, so the order dialog can say which rate is missing. */
export function rateUnavailable(quote: string, walletCurrency: string): AppError {
  return new AppError(
    'RATE_UNAVAILABLE',
    `No conversion rate from ${quote} to ${walletCurrency} is available right now. Please try again in a moment.`,
  );
}

/** GET /dashboard/rates?quote=: units of `quote` per one unit of the active wallet's currency. */
export async function conversionRate(
  ctx: Pick<AppContext, 'db' | 'market'>,
  userId: number,
  quote: string,
): Promise<RateResponse> {
  const trader = await loadTrader(ctx.db, userId);
  const code = quote.toUpperCase();
  const rate = ctx.market.conversionRate(code, trader.wallet.currency);
  if (!rate || !(rate > 0)) {
    // A code nothing is traded in is the caller's mistake; a known one without a rate right now is ours.
    if (code !== trader.wallet.currency && !ctx.market.knowsCurrency(code))
      throw new AppError('UNKNOWN_CURRENCY', `Unknown currency: ${code}`, { quote: `Unknown currency: ${code}` });
    throw rateUnavailable(code, trader.wallet.currency);
  }
  return { rate: dec(rate).toDecimalPlaces(8).toString(), base: trader.wallet.currency, quote: code };
}

/**
 * GET /dashboard/lot-state/{category}[?instrument=]: whether the order size is picked from lot presets or typed as an
 * amount, and the presets in units of the instrument named (of the category's default contract without one).
 */
export async function lotState(
  ctx: Pick<AppContext, 'db' | 'market'>,
  category: Category,
  instrumentName?: string,
): Promise<LotStateResponse> {
  const s = await tradingSettings(ctx.db);
  const named = instrumentName ? ctx.market.instruments.byNameOf(instrumentName) : undefined;
  if (instrumentName && (!named || named.category !== category)) throw new AppError('INSTRUMENT_NOT_FOUND');
  const instrument = named ?? { category, contractSize: null };
  return {
    lotState: lotModeOf(s, category),
    lotSelector: presetsFor(s, instrument),
    contractSize: contractSizeOf(instrument).toString(),
  };
}

export async function listFavorites(db: DbOrTx, userId: number): Promise<FavoriteDto[]> {
  const rows = await db
    .select({ id: favorites.id, list_id: favorites.instrumentId, name: instruments.name })
    .from(favorites)
    .innerJoin(instruments, eq(instruments.id, favorites.instrumentId))
    .where(eq(favorites.userId, userId))
    .orderBy(asc(favorites.id));
  return rows;
}

/** Adding twice is harmless: the favourite simply stays. */
export async function addFavorite(
  ctx: Pick<AppContext, 'db' | 'market'>,
  userId: number,
  instrumentId: number,
): Promise<void> {
  if (!ctx.market.instruments.byIdOf(instrumentId)) throw new AppError('INSTRUMENT_NOT_FOUND');
  try {
    await ctx.db.insert(favorites).values({ userId, instrumentId }).onConflictDoNothing();
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
}

export async function removeFavorite(db: DbOrTx, userId: number, instrumentId: number): Promise<void> {
  await db.delete(favorites).where(and(eq(favorites.userId, userId), eq(favorites.instrumentId, instrumentId)));
}
