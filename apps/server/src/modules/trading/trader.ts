import { and, eq, sql } from 'drizzle-orm';
import { resolveLeverage, resolveStopout, type Category } from '@platform/domain';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { balances, kycDocuments, pricingPlans, users } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { getSettingsCached, isOn, type SettingRow } from '../settings/service.ts';

/** The terms of a pricing plan that trading reads: leverage per category and the stop-out level. */
const planTerms = {
  id: pricingPlans.id,
  forexLeverage: pricingPlans.forexLeverage,
  commodityLeverage: pricingPlans.commodityLeverage,
  indexLeverage: pricingPlans.indexLeverage,
  stockLeverage: pricingPlans.stockLeverage,
  cryptoLeverage: pricingPlans.cryptoLeverage,
  forexStopout: pricingPlans.forexStopout,
};
type Plan = Pick<typeof pricingPlans.$inferSelect, keyof typeof planTerms>;

/** Who is trading: the caller's active wallet, pricing plan and KYC state, read in one query. */
export interface Trader {
  userId: number;
  wallet: { id: number; currency: string; mode: string };
  plan: Plan | null;
  kycApproved: boolean;
}

const traderFields = {
  walletId: balances.id,
  currency: balances.currency,
  mode: balances.mode,
  // Only the terms used, not the plan's texts: this is read on every order.
  plan: planTerms,
  kyc: sql<boolean>`exists (select 1 from ${kycDocuments} where ${kycDocuments.userId} = ${users.id} and ${kycDocuments.status} = 'approved')`,
};

export async function loadTrader(db: DbOrTx, userId: number): Promise<Trader> {
  const [row] = await db
    .select(traderFields)
    .from(users)
    .leftJoin(balances, and(eq(balances.id, users.activeBalanceId), eq(balances.userId, users.id)))
    .leftJoin(pricingPlans, eq(pricingPlans.id, users.pricingTableId))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row || row.walletId === null || row.currency === null || row.mode === null) throw new AppError('NO_ACTIVE_WALLET');
  return { userId, wallet: { id: row.walletId, currency: row.currency, mode: row.mode }, plan: row.plan, kycApproved: row.kyc };
}

/** A trader whose active wallet row is locked for the rest of the transaction, with its current figures. */
export interface LockedTrader extends Trader {
  wallet: Trader['wallet'] & { balance: string; margin: string };
}

/**
 * The trader and a lock on their active wallet in one statement, for placing an order: reading them separately
 * cost a round trip per order, and the wallet read under the lock is the one the margin checks need anyway.
 */
export async function lockTrader(tx: Tx, userId: number): Promise<LockedTrader> {
  const [row] = await tx
    .select({ ...traderFields, balance: balances.balance, margin: balances.margin })
    .from(users)
    .innerJoin(balances, and(eq(balances.id, users.activeBalanceId), eq(balances.userId, users.id)))
    .leftJoin(pricingPlans, eq(pricingPlans.id, users.pricingTableId))
    .where(eq(users.id, userId))
    .for('update', { of: balances })
    // Named so PostgreSQL plans it once per connection (see placeOrder).
    .prepare('lock_trader')
    .execute();
  if (!row) throw new AppError('NO_ACTIVE_WALLET');
  return {
    userId,
    wallet: { id: row.walletId, currency: row.currency, mode: row.mode, balance: row.balance, margin: row.margin },
    plan: row.plan,
    kycApproved: row.kyc,
  };
}

export function leverageFor(plan: Plan | null, category: Category, instrumentLeverage: number): number {
  const lev = resolveLeverage(plan?.[`${category}Leverage`] ?? null, instrumentLeverage);
  return lev > 0 ? lev : 1;
}

/** The account's stop-out level: the plan's forex stopout (the figure the pricing page shows), else 50 %. */
export const stopoutFor = (plan: Plan | null): number => resolveStopout(plan?.forexStopout ?? null);

const TRADING_KEYS = ['kyc', 'spread_forex', 'spread_commodity', 'spread_index', 'spread_stock', 'spread_crypto', 'lot_forex', 'lot_commodity', 'lot_index', 'lot_stock', 'lot_crypto', 'lotSelector'];

/** Spreads, the KYC switch and lot modes, read on every order through the settings cache. */
export const tradingSettings = (db: DbOrTx): Promise<Record<string, SettingRow | undefined>> => getSettingsCached(db, TRADING_KEYS);

export const kycRequiredForTrade = (s: Record<string, SettingRow | undefined>): boolean => isOn(s.kyc, 'value3');

/** The spread setting's value1 of a category (an integer multiplier; 1 when unset). */
export function spreadSettingOf(s: Record<string, SettingRow | undefined>, category: Category): string {
  const v = s[`spread_${category}`]?.value1?.trim();
  return v && /^\d+(\.\d+)?$/.test(v) ? v : '1';
}
