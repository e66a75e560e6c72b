import { count, eq, ilike, sql } from 'drizzle-orm';
import {
  Decimal,
  dec,
  formatMoney,
  PLAN_PRICE_TOLERANCE,
  type PagedQuery,
  type PlanChargeDto,
  type PricingPlanDto,
  type PricingPlanListResponse,
  type PricingPlanRequest,
  retailCapsOf,
  retailIssues,
} from '@platform/domain';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { balances, pricingPlans, users } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import { escapeLike, offsetOf, pageMeta } from '../../lib/paging.ts';
import type { StaffActor } from '../../lib/staff-scope.ts';
import { planTermsOf } from '../auth/current-user.ts';
import { emitAll, insertNotification } from '../notifications/service.ts';
import { getBranding, getSettingsCached, isOn } from '../settings/service.ts';
import { forgetTrader } from '../trading/trader.ts';
import { moveMoney, onWallet, livePlOf } from '../wallets/ledger.ts';

type PlanRow = typeof pricingPlans.$inferSelect;
type Ctx = Pick<AppContext, 'db' | 'risk' | 'realtime' | 'market'>;

// Qualified by hand: inside the subquery a bare "id" would name the user's id.
const subscribersOf = sql<number>`(select count(*)::int from users u where u.pricing_table_id = "pricing_plans"."id" and u.deleted_at is null)`;

function planDto(p: PlanRow, subscribers: number, currency: string, charge?: PlanChargeDto | null): PricingPlanDto {
  return {
    ...(charge !== undefined && { charge }),
    id: p.id,
    name: p.name,
    description: p.description,
    price: p.price,
    currency,
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
    account_type: p.accountType === 'netting' ? 'netting' : 'hedging',
    ...planTermsOf(p),
    subscribers: Number(subscribers),
  };
}

/** Plan prices are in the broker's currency (branding value4). */
const planCurrency = async (db: DbOrTx) => (await getBranding(db)).appCurrency?.split(',')[0]?.trim() || 'USD';

type WalletRow = typeof balances.$inferSelect;

/** The real wallet a plan is charged from: the active wallet when it is real, else the customer's first real one. */
async function chargedWallet(db: DbOrTx, userId: number): Promise<WalletRow | undefined> {
  const [user] = await db.select({ active: users.activeBalanceId }).from(users).where(eq(users.id, userId)).limit(1);
  const wallets = await db.select().from(balances).where(eq(balances.userId, userId)).orderBy(balances.id);
  return wallets.find((w) => w.id === user?.active && w.mode === 'real') ?? wallets.find((w) => w.mode === 'real');
}

/**
 * A plan's price in the wallet's currency at the market's rate (units of the plan's currency per one unit of the
 * wallet's), rounded up to the cent: the broker is never paid less than the price. Null when no rate is known.
 */
function chargeIn(
  market: AppContext['market'],
  price: string,
  planCurrency: string,
  wallet: WalletRow,
): PlanChargeDto | null {
  const rate = wallet.currency === planCurrency ? 1 : market.conversionRate(planCurrency, wallet.currency);
  if (!rate || !Number.isFinite(rate) || rate <= 0) return null;
  return {
    wallet_id: wallet.id,
    amount: dec(price).div(rate).toDecimalPlaces(2, Decimal.ROUND_UP).toFixed(2),
    currency: wallet.currency,
    rate: dec(rate).toSignificantDigits(8).toString(),
  };
}

/**
 * GET /dashboard/pricing: the plans, cheapest first, with how many customers are on each. A customer also gets what
 * each plan would charge their real wallet, in its currency, so the page shows the price they will pay.
 */
export async function listPlans(
  ctx: Pick<AppContext, 'db' | 'market'>,
  caller: { id: number; roleId: number },
  q: PagedQuery,
): Promise<PricingPlanListResponse> {
  const s = q.search?.trim();
  const where = s ? ilike(pricingPlans.name, `%${escapeLike(s)}%`) : undefined;
  const rows = await ctx.db
    .select({ p: pricingPlans, subscribers: subscribersOf })
    .from(pricingPlans)
    .where(where)
    .orderBy(pricingPlans.price, pricingPlans.id)
    .limit(q.limit)
    .offset(offsetOf(q));
  const [{ n }] = await ctx.db.select({ n: count() }).from(pricingPlans).where(where);
  const currency = await planCurrency(ctx.db);
  const wallet = caller.roleId === 3 ? await chargedWallet(ctx.db, caller.id) : undefined;
  const chargeOf = (p: PlanRow) =>
    caller.roleId !== 3 ? undefined : wallet ? chargeIn(ctx.market, p.price, currency, wallet) : null;
  return { data: rows.map((r) => planDto(r.p, r.subscribers, currency, chargeOf(r.p))), meta: pageMeta(q, n) };
}

const values = (v: z.output<typeof PricingPlanRequest>) => ({
  name: v.name,
  description: v.description ?? null,
  price: v.price,
  forexLeverage: v.forexLeverage,
  commodityLeverage: v.commodityLeverage,
  indexLeverage: v.indexLeverage,
  stockLeverage: v.stockLeverage,
  cryptoLeverage: v.cryptoLeverage,
  forexStopout: v.forexStopout,
  commodityStopout: v.commodityStopout,
  indexStopout: v.indexStopout,
  stockStopout: v.stockStopout,
  cryptoStopout: v.cryptoStopout,
  // An edit that does not name the account type keeps the plan's (a new plan takes the column's default, hedging).
  ...(v.accountType ? { accountType: v.accountType } : {}),
  // Likewise the terms added after the spec: what is not named keeps its value (a new plan: no commission, no margin
  // call, swaps paid).
  ...definedOnly({
    forexCommission: v.forexCommission,
    commodityCommission: v.commodityCommission,
    indexCommission: v.indexCommission,
    stockCommission: v.stockCommission,
    cryptoCommission: v.cryptoCommission,
    commissionBasis: v.commissionBasis,
    commissionCharge: v.commissionCharge,
    marginCallLevel: v.marginCallLevel,
    marginCallRearm: v.marginCallRearm,
    swapFree: v.swapFree,
    swapFreeFee: v.swapFreeFee,
    swapFreeDays: v.swapFreeDays,
    retail: v.retail,
    retailCaps: v.retailCaps,
  }),
});

const definedOnly = <T extends Record<string, unknown>>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

/** A retail plan's leverage and close-out within the retail rules, else a 400 on the first field that is not. */
function checkRetail(p: PlanRow): void {
  const [issue] = retailIssues(p.retail, retailCapsOf(p.retailCaps), p);
  if (issue) throw fieldError(issue.field, issue.message);
}

const auditOf = (p: PlanRow) => ({ ...p, createdAt: undefined });

/** POST /admin/pricing. */
export async function createPlan(
  ctx: Pick<AppContext, 'db'>,
  actor: StaffActor,
  v: z.output<typeof PricingPlanRequest>,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    // Retail protections are the default for a new plan (the request's refinement checked its terms against them).
    const [row] = await tx
      .insert(pricingPlans)
      .values({ ...values(v), retail: v.retail ?? true })
      .returning();
    if (v.retail === undefined) checkRetail(row);
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: null,
      action: 'plan.create',
      after: auditOf(row),
      ip: actor.ip,
    });
  });
}

/** PUT /admin/pricing/{id}: new terms apply to subscribers' next orders (trading re-reads the plan). */
export async function updatePlan(
  ctx: Pick<AppContext, 'db'>,
  actor: StaffActor,
  id: number,
  v: z.output<typeof PricingPlanRequest>,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [before] = await tx.select().from(pricingPlans).where(eq(pricingPlans.id, id)).for('update');
    if (!before) throw new AppError('PLAN_NOT_FOUND');
    const [after] = await tx
      .update(pricingPlans)
      .set({ ...values(v), revision: sql`${pricingPlans.revision} + 1` })
      .where(eq(pricingPlans.id, id))
      .returning();
    // The edit may leave retail on without naming it: the stored plan's terms are checked whole.
    checkRetail(after);
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: null,
      action: 'plan.update',
      before: auditOf(before),
      after: auditOf(after),
      ip: actor.ip,
    });
  });
}

/** DELETE /admin/pricing/{id}: refused while customers are on the plan, saying how many; their terms never vanish silently. */
export async function deletePlan(ctx: Pick<AppContext, 'db'>, actor: StaffActor, id: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [before] = await tx.select().from(pricingPlans).where(eq(pricingPlans.id, id)).for('update');
    if (!before) throw new AppError('PLAN_NOT_FOUND');
    const [{ n }] = await tx.select({ n: count() }).from(users).where(eq(users.pricingTableId, id));
    if (n > 0) {
      throw new AppError(
        'PLAN_IN_USE',
        `${n} customer${n === 1 ? ' is' : 's are'} subscribed to this plan. They keep its terms until they choose another plan or staff move them; delete it after that.`,
      );
    }
    await tx.delete(pricingPlans).where(eq(pricingPlans.id, id));
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: null,
      action: 'plan.delete',
      before: auditOf(before),
      ip: actor.ip,
    });
  });
}

/**
 * POST /dashboard/pricing/subscribe/{planId}: a one-off charge of the plan's price from the customer's real wallet
 * (the active one when it is real, else their first real wallet), converted at the market's rate when the wallet is
 * in another currency, with its ledger entry, and the plan set, in one transaction. When the customer confirmed an
 * amount (what the plans list showed them), exactly that is charged, provided it is still within
 * PLAN_PRICE_TOLERANCE of the price at the current rate; otherwise nothing changes and the answer is 409 with the new
 * price. Not enough free funds: nothing changes ("Not enough balance").
 */
export async function subscribe(
  ctx: Ctx,
  userId: number,
  planId: number,
  confirmed?: { amount?: string; currency?: string } | null,
): Promise<string> {
  const settings = await getSettingsCached(ctx.db, ['pricingPlan']);
  if (!isOn(settings.pricingPlan)) throw new AppError('PLANS_OFF');
  const [plan] = await ctx.db.select().from(pricingPlans).where(eq(pricingPlans.id, planId)).limit(1);
  if (!plan) throw new AppError('PLAN_NOT_FOUND');
  const [user] = await ctx.db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (user.pricingTableId === planId) throw new AppError('ALREADY_SUBSCRIBED');
  const price = dec(plan.price);
  const currency = await planCurrency(ctx.db);
  const wallet = await chargedWallet(ctx.db, userId);
  let charge = '0';
  let rate = '1';
  if (price.gt(0)) {
    if (!wallet) throw new AppError('NOT_ENOUGH_BALANCE');
    const now = chargeIn(ctx.market, plan.price, currency, wallet);
    if (!now) throw new AppError('RATE_UNAVAILABLE');
    charge = now.amount;
    rate = now.rate;
    if (confirmed?.amount !== undefined) {
      const moved = dec(confirmed.amount).minus(now.amount).abs();
      const sameWallet = (confirmed.currency ?? now.currency).toUpperCase() === now.currency;
      if (!sameWallet || moved.gt(dec(now.amount).times(PLAN_PRICE_TOLERANCE)))
        throw new AppError(
          'PLAN_PRICE_CHANGED',
          `The price is now ${formatMoney(now.amount, now.currency)} at the current rate. Please confirm the new price.`,
        );
      charge = dec(confirmed.amount).toFixed(2);
    }
  }
  const converted =
    wallet && wallet.currency !== currency
      ? ` = ${formatMoney(charge, wallet.currency)} at ${rate} ${currency}/${wallet.currency}`
      : '';
  const apply = async () =>
    ctx.db.transaction(async (tx) => {
      // Locked and re-read: two subscriptions at once charge once.
      const [locked] = await tx
        .select({ planId: users.pricingTableId })
        .from(users)
        .where(eq(users.id, userId))
        .for('update');
      if (locked.planId === planId) throw new AppError('ALREADY_SUBSCRIBED');
      let walletBalance: string | null = null;
      if (dec(charge).gt(0) && wallet) {
        const moved = await moveMoney(tx, {
          balanceId: wallet.id,
          amount: `-${charge}`,
          kind: 'plan_charge',
          refType: 'plan',
          refId: plan.id,
          actorId: userId,
          note: `Plan ${plan.name}: ${formatMoney(plan.price, currency)}${converted}`,
          freeFundsWithPl: livePlOf(ctx, wallet.id),
        });
        if (!moved) throw new AppError('NOT_ENOUGH_BALANCE');
        walletBalance = moved.balanceAfter;
      }
      await tx.update(users).set({ pricingTableId: plan.id }).where(eq(users.id, userId));
      await writeAudit(tx, {
        actorId: userId,
        targetUserId: userId,
        action: 'plan.subscribe',
        before: { planId: user.pricingTableId },
        after: {
          planId: plan.id,
          charged: charge,
          currency: wallet?.currency ?? currency,
          rate,
          walletId: wallet?.id ?? null,
        },
      });
      const dto = await insertNotification(tx, userId, {
        title: 'Plan activated',
        description: `You are now on the ${plan.name} plan.`,
        url: '/pricing',
      });
      return { dto, walletBalance };
    });
  const result = wallet ? await onWallet(ctx, wallet.id, apply) : await apply();
  forgetTrader(ctx.db, userId);
  emitAll(ctx, [{ userId, dto: result.dto }]);
  return `You are now on the ${plan.name} plan.`;
}
