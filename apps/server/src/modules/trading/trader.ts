import { resolveLeverage, resolveStopout, type Category } from '@platform/domain';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { pricingPlans } from '../../db/schema.ts';
import { statementsOf } from '../../db/statements.ts';
import { AppError } from '../../lib/errors.ts';
import { LOAD_TRADER, type TraderRow } from './order-statements.ts';
import { getSettingsCached, isOn, type SettingRow } from '../settings/service.ts';

/** The terms of a pricing plan that trading reads: leverage per category and the stop-out level. */
type Plan = Pick<
  typeof pricingPlans.$inferSelect,
  'id' | 'forexLeverage' | 'commodityLeverage' | 'indexLeverage' | 'stockLeverage' | 'cryptoLeverage' | 'forexStopout'
>;

/** Who is trading: the caller's active wallet, pricing plan and KYC state, read in one query. */
export interface Trader {
  userId: number;
  wallet: { id: number; currency: string; mode: string };
  plan: Plan | null;
  kycApproved: boolean;
}

/** The caller's active wallet (or the given wallet of theirs), plan terms and KYC state in one named statement. */
export async function loadTrader(db: Db, userId: number, walletId: number | null = null): Promise<Trader> {
  const [row] = await statementsOf(db).rows<TraderRow>(LOAD_TRADER, [userId, walletId]);
  if (!row) throw new AppError('NO_ACTIVE_WALLET');
  return traderOfRow(userId, row);
}

export function traderOfRow(userId: number, row: TraderRow): Trader {
  const plan: Plan | null =
    row.plan_id === null
      ? null
      : {
          id: row.plan_id,
          forexLeverage: row.forex_leverage,
          commodityLeverage: row.commodity_leverage,
          indexLeverage: row.index_leverage,
          stockLeverage: row.stock_leverage,
          cryptoLeverage: row.crypto_leverage,
          forexStopout: row.forex_stopout,
        };
  return {
    userId,
    wallet: { id: row.wallet_id, currency: row.wallet_currency, mode: row.wallet_mode },
    plan,
    kycApproved: row.kyc,
  };
}

/** The plan's own leverage column for a category (null without a plan): what PLACE_ORDER checks is unchanged. */
export const planLeverageOf = (plan: Plan | null, category: Category): number | null =>
  plan?.[`${category}Leverage`] ?? null;

export function leverageFor(plan: Plan | null, category: Category, instrumentLeverage: number): number {
  const lev = resolveLeverage(plan?.[`${category}Leverage`] ?? null, instrumentLeverage);
  return lev > 0 ? lev : 1;
}

/** The account's stop-out level: the plan's forex stopout (the figure the pricing page shows), else 50 %. */
export const stopoutFor = (plan: Plan | null): number => resolveStopout(plan?.forexStopout ?? null);

const TRADING_KEYS = [
  'kyc',
  'spread_forex',
  'spread_commodity',
  'spread_index',
  'spread_stock',
  'spread_crypto',
  'lot_forex',
  'lot_commodity',
  'lot_index',
  'lot_stock',
  'lot_crypto',
  'lotSelector',
];

/** Spreads, the KYC switch and lot modes, read on every order through the settings cache. */
export const tradingSettings = (db: DbOrTx): Promise<Record<string, SettingRow | undefined>> =>
  getSettingsCached(db, TRADING_KEYS);

export const kycRequiredForTrade = (s: Record<string, SettingRow | undefined>): boolean => isOn(s.kyc, 'value3');

/** The spread setting's value1 of a category (an integer multiplier; 1 when unset). */
export function spreadSettingOf(s: Record<string, SettingRow | undefined>, category: Category): string {
  const v = s[`spread_${category}`]?.value1?.trim();
  return v && /^\d+(\.\d+)?$/.test(v) ? v : '1';
}
