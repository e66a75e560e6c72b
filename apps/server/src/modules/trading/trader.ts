import { and, eq, sql } from 'drizzle-orm';
import { resolveLeverage, resolveStopout, type Category } from '@platform/domain';
import type { DbOrTx } from '../../db/client.ts';
import { balances, kycDocuments, pricingPlans, users } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { getSettingsCached, isOn, type SettingRow } from '../settings/service.ts';

type Plan = typeof pricingPlans.$inferSelect;

/** Who is trading: the caller's active wallet, pricing plan and KYC state, read in one query. */
export interface Trader {
  userId: number;
  wallet: { id: number; currency: string; mode: string };
  plan: Plan | null;
  kycApproved: boolean;
}

export async function loadTrader(db: DbOrTx, userId: number): Promise<Trader> {
  const [row] = await db
    .select({
      walletId: balances.id,
      currency: balances.currency,
      mode: balances.mode,
      plan: pricingPlans,
      kyc: sql<boolean>`exists (select 1 from ${kycDocuments} where ${kycDocuments.userId} = ${users.id} and ${kycDocuments.status} = 'approved')`,
    })
    .from(users)
    .leftJoin(balances, and(eq(balances.id, users.activeBalanceId), eq(balances.userId, users.id)))
    .leftJoin(pricingPlans, eq(pricingPlans.id, users.pricingTableId))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row || row.walletId === null || row.currency === null || row.mode === null) throw new AppError('NO_ACTIVE_WALLET');
  return { userId, wallet: { id: row.walletId, currency: row.currency, mode: row.mode }, plan: row.plan, kycApproved: row.kyc };
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
