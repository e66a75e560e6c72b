import { and, eq } from 'drizzle-orm';
import { type CurrentUserResponse, retailCapsOf } from '@platform/domain';
import type { DbOrTx } from '../../db/client.ts';
import { balances, kycDocuments, pricingPlans, userProfiles, users } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { getSettingsCached, isOn } from '../settings/service.ts';

type PlanRow = typeof pricingPlans.$inferSelect;
type BalanceRow = typeof balances.$inferSelect;

export const balanceDto = (b: BalanceRow) => ({
  id: b.id,
  mode: b.mode as 'demo' | 'real',
  currency: b.currency,
  balance: b.balance,
  margin: b.margin,
  margin_call: b.marginCallAt !== null,
});

export const planDto = (p: PlanRow) => ({
  id: p.id,
  name: p.name,
  description: p.description,
  price: p.price,
  forex_leverage: p.forexLeverage,
  commodity_leverage: p.commodityLeverage,
  index_leverage: p.indexLeverage,
  stock_leverage: p.stockLeverage,
  crypto_leverage: p.cryptoLeverage,
  forex_stopout: p.forexStopout,
  commodity_stopout: p.commodityStopout,
  index_stopout: p.indexStopout,
  stock_stopout: p.stockStopout,
  crypto_stopout: p.cryptoStopout,
  account_type: p.accountType === 'netting' ? ('netting' as const) : ('hedging' as const),
  ...planTermsOf(p),
});

/** A plan's commission, margin-call and swap-free terms as its answers carry them (snake_case, as its other fields). */
export const planTermsOf = (p: PlanRow) => ({
  forex_commission: p.forexCommission,
  commodity_commission: p.commodityCommission,
  index_commission: p.indexCommission,
  stock_commission: p.stockCommission,
  crypto_commission: p.cryptoCommission,
  commission_basis: p.commissionBasis === 'million' ? ('million' as const) : ('lot' as const),
  commission_charge: (['open', 'close'] as const).find((c) => c === p.commissionCharge) ?? ('both' as const),
  margin_call_level: p.marginCallLevel,
  margin_call_rearm: p.marginCallRearm,
  swap_free: p.swapFree,
  swap_free_fee: p.swapFreeFee,
  swap_free_days: p.swapFreeDays,
  retail: p.retail,
  retail_caps: retailCapsOf(p.retailCaps),
});

export async function isKycApproved(db: DbOrTx, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: kycDocuments.id })
    .from(kycDocuments)
    .where(and(eq(kycDocuments.userId, userId), eq(kycDocuments.status, 'approved')))
    .limit(1);
  return Boolean(row);
}

/** GET /auth/user: the user with profile, wallets, active wallet, pricing plan and KYC flag. */
export async function getCurrentUser(db: DbOrTx, userId: number, impersonating: boolean): Promise<CurrentUserResponse> {
  const [u] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!u) throw new AppError('UNAUTHENTICATED');
  const [profile] = await db.select().from(userProfiles).where(eq(userProfiles.userId, userId)).limit(1);
  const wallets = await db.select().from(balances).where(eq(balances.userId, userId)).orderBy(balances.id);
  const [plan] = u.pricingTableId
    ? await db.select().from(pricingPlans).where(eq(pricingPlans.id, u.pricingTableId)).limit(1)
    : [];
  const active = wallets.find((w) => w.id === u.activeBalanceId) ?? wallets[0] ?? null;
  const { kyc } = await getSettingsCached(db, ['kyc']);
  return {
    user: {
      id: u.id,
      full_name: u.fullName,
      email: u.email,
      role_id: u.roleId,
      pricing_table_id: u.pricingTableId,
      is_email_verified: u.isEmailVerified,
      balances: wallets.map(balanceDto),
      profile: {
        phone: profile?.phone ?? null,
        birth_date: profile?.birthDate ?? null,
        country: profile?.country ?? null,
        city: profile?.city ?? null,
        address: profile?.address ?? null,
        postal_code: profile?.postalCode ?? null,
      },
      pricingTable: plan ? planDto(plan) : null,
    },
    activeBalance: active ? balanceDto(active) : null,
    isKyc: await isKycApproved(db, userId),
    kycRequired: { deposit: isOn(kyc, 'value1'), withdraw: isOn(kyc, 'value2'), trade: isOn(kyc, 'value3') },
    impersonating,
  };
}
