import {
  dec,
  effectiveLeverage,
  resolveStopout,
  retailCapsOf,
  type RetailTerms,
  type Category,
  type CommissionBasis,
  type CommissionCharge,
  type CommissionTerms,
} from '@platform/domain';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { pricingPlans } from '../../db/schema.ts';
import { statementsOf } from '../../db/statements.ts';
import { AppError } from '../../lib/errors.ts';
import { LOAD_PLAN, LOAD_TRADER, type TraderRow } from './order-statements.ts';
import { getSettingsCached, isOn, type SettingRow } from '../settings/service.ts';
import { CATEGORY_PRESET_KEYS } from './lot-rules.ts';

/**
 * A trader's facts and their cache, in one place: who trades (active wallet, pricing plan terms, account type, KYC
 * state), read in one statement, remembered between orders so that placing takes one database round trip, and
 * forgotten by whoever changes them (KYC review, plan change, staff edits). The cache is only a hint: PLACE_ORDER
 * re-checks the facts with the wallet locked and answers the current ones when they no longer hold.
 */

/** The terms of a pricing plan that trading reads: leverage per category, the stop-out level and the account type. */
export type Plan = Pick<
  typeof pricingPlans.$inferSelect,
  | 'id'
  | 'forexLeverage'
  | 'commodityLeverage'
  | 'indexLeverage'
  | 'stockLeverage'
  | 'cryptoLeverage'
  | 'forexStopout'
  | 'forexCommission'
  | 'commodityCommission'
  | 'indexCommission'
  | 'stockCommission'
  | 'cryptoCommission'
  | 'marginCallLevel'
  | 'marginCallRearm'
  | 'revision'
> & {
  accountType: AccountType;
  commissionBasis: CommissionBasis;
  commissionCharge: CommissionCharge;
  /** Retail protections: on, with the caps by instrument class. */
  retail: RetailTerms;
};

/** Hedging: any number of positions per instrument. Netting: at most one, which opposite orders reduce or reverse. */
export type AccountType = 'hedging' | 'netting';

/** Who is trading: the caller's active wallet, pricing plan and KYC state, read in one query. */
export interface Trader {
  userId: number;
  wallet: { id: number; currency: string; mode: string };
  plan: Plan | null;
  kycApproved: boolean;
}

/** Bound on the traders remembered; past it the hot path simply reads the database first, as on a cold start. */
const MAX_TRADERS = 50_000;
const caches = new WeakMap<object, Map<number, Trader>>();

/** The traders remembered for one database (tests open several in one process). */
function cacheOf(db: object): Map<number, Trader> {
  let c = caches.get(db);
  if (!c) caches.set(db, (c = new Map()));
  return c;
}

/** The caller's active wallet (or the given wallet of theirs), plan terms and KYC state in one named statement. */
export async function loadTrader(db: Db, userId: number, walletId: number | null = null): Promise<Trader> {
  const [row] = await statementsOf(db).rows<TraderRow>(LOAD_TRADER, [userId, walletId]);
  if (!row) throw new AppError('NO_ACTIVE_WALLET');
  return traderOfRow(userId, row);
}

/** The trader as last remembered (their active wallet), or undefined: then loadTrader reads it. */
export const rememberedTrader = (db: object, userId: number): Trader | undefined => cacheOf(db).get(userId);

/** Keeps the facts PLACE_ORDER answered for the next order (active wallets only). */
export function rememberTrader(db: object, trader: Trader): void {
  const cache = cacheOf(db);
  if (cache.size >= MAX_TRADERS && !cache.has(trader.userId)) cache.clear();
  cache.set(trader.userId, trader);
}

/** Called by whatever changes a trader's wallet, plan or KYC state, so the next order reads them again. */
export function forgetTrader(db: object, userId: number): void {
  cacheOf(db).delete(userId);
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
          accountType: row.account_type === 'netting' ? 'netting' : 'hedging',
          forexCommission: row.forex_commission ?? '0',
          commodityCommission: row.commodity_commission ?? '0',
          indexCommission: row.index_commission ?? '0',
          stockCommission: row.stock_commission ?? '0',
          cryptoCommission: row.crypto_commission ?? '0',
          commissionBasis: row.commission_basis === 'million' ? 'million' : 'lot',
          commissionCharge:
            row.commission_charge === 'open' || row.commission_charge === 'close' ? row.commission_charge : 'both',
          marginCallLevel: row.margin_call_level,
          marginCallRearm: row.margin_call_rearm ?? 0,
          revision: row.revision ?? 0,
          retail: { retail: row.retail === true, caps: retailCapsOf(row.retail_caps) },
        };
  return {
    userId,
    wallet: { id: row.wallet_id, currency: row.wallet_currency, mode: row.wallet_mode },
    plan,
    kycApproved: row.kyc,
  };
}

/** The account type of the trader's plan; hedging without a plan (today's behaviour). */
export const accountTypeOf = (trader: Trader): AccountType => trader.plan?.accountType ?? 'hedging';

/** The plan's own leverage column for a category (null without a plan): what PLACE_ORDER checks is unchanged. */
export const planLeverageOf = (plan: Plan | null, category: Category): number | null =>
  plan?.[`${category}Leverage`] ?? null;

/** The plan's commission terms for a category; null charges nothing (no plan, or a rate of 0). */
export function commissionTermsOf(plan: Plan | null, category: Category): CommissionTerms | null {
  const rate = plan?.[`${category}Commission`];
  if (!plan || rate === undefined || dec(rate).isZero()) return null;
  return { rate, basis: plan.commissionBasis, charge: plan.commissionCharge };
}

/** The plan's revision and commission terms as the order statements compare them (commissionKeySql); '' without a plan. */
export const commissionKeyOf = (plan: Plan | null, category: Category): string =>
  plan ? `${plan.revision}|${plan.commissionBasis}|${plan.commissionCharge}|${plan[`${category}Commission`]}` : '';

/** A user's pricing plan as remembered with their trader facts, else read (a close needs its commission terms). */
export async function planOfUser(db: Db, userId: number): Promise<Plan | null> {
  const known = rememberedTrader(db, userId);
  if (known) return known.plan;
  const [row] = await statementsOf(db).rows<TraderRow>(LOAD_PLAN, [userId]);
  return row ? traderOfRow(userId, row).plan : null;
}

/** The leverage an order on the instrument is margined at: the plan's or the instrument's, capped on a retail plan. */
export const leverageFor = (
  plan: Plan | null,
  instrument: { category: Category; base: string; quote: string; leverage: number },
): number => effectiveLeverage(plan?.[`${instrument.category}Leverage`] ?? null, instrument, plan?.retail);

/** The plan's margin call for the risk engine: its level and re-arm points, or null without one. */
export const marginCallOf = (plan: Plan | null): { level: number; rearm: number } | null =>
  plan?.marginCallLevel ? { level: plan.marginCallLevel, rearm: plan.marginCallRearm } : null;

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
  ...CATEGORY_PRESET_KEYS,
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
