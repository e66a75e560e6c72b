import { count, eq, ilike, sql } from 'drizzle-orm';
import {
  dec,
  formatMoney,
  type PagedQuery,
  type PricingPlanDto,
  type PricingPlanListResponse,
  type PricingPlanRequest,
} from '@platform/domain';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { balances, pricingPlans, users } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import { escapeLike, offsetOf, pageMeta } from '../../lib/paging.ts';
import type { StaffActor } from '../../lib/staff-scope.ts';
import { emitAll, insertNotification } from '../notifications/service.ts';
import { getBranding, getSettingsCached, isOn } from '../settings/service.ts';
import { tradingMemoryOf } from '../trading/trading-memory.ts';
import { moveMoney, onWallet, livePlOf } from '../wallets/ledger.ts';

type PlanRow = typeof pricingPlans.$inferSelect;
type Ctx = Pick<AppContext, 'db' | 'risk' | 'realtime' | 'market'>;

// Qualified by hand: inside the subquery a bare "id" would name the user's id.
const subscribersOf = sql<number>`(select count(*)::int from users u where u.pricing_table_id = "pricing_plans"."id" and u.deleted_at is null)`;

function planDto(p: PlanRow, subscribers: number, currency: string): PricingPlanDto {
  return {
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
    subscribers: Number(subscribers),
  };
}

/** Plan prices are in the broker's currency (branding value4). */
const planCurrency = async (db: DbOrTx) => (await getBranding(db)).appCurrency?.split(',')[0]?.trim() || 'USD';

/** GET /dashboard/pricing: the plans, cheapest first, with how many customers are on each. */
export async function listPlans(ctx: Pick<AppContext, 'db'>, q: PagedQuery): Promise<PricingPlanListResponse> {
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
  return { data: rows.map((r) => planDto(r.p, r.subscribers, currency)), meta: pageMeta(q, n) };
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
});

const auditOf = (p: PlanRow) => ({ ...p, createdAt: undefined });

/** POST /admin/pricing. */
export async function createPlan(
  ctx: Pick<AppContext, 'db'>,
  actor: StaffActor,
  v: z.output<typeof PricingPlanRequest>,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx.insert(pricingPlans).values(values(v)).returning();
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
    const [after] = await tx.update(pricingPlans).set(values(v)).where(eq(pricingPlans.id, id)).returning();
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
 * (the active one when it is real, else their first real wallet), converted at the server's rate when the wallet is
 * in another currency, with its ledger entry, and the plan set, in one transaction. Not enough free funds: nothing
 * changes ("Not enough balance").
 */
export async function subscribe(ctx: Ctx, userId: number, planId: number): Promise<string> {
  const settings = await getSettingsCached(ctx.db, ['pricingPlan']);
  if (!isOn(settings.pricingPlan)) throw new AppError('PLANS_OFF');
  const [plan] = await ctx.db.select().from(pricingPlans).where(eq(pricingPlans.id, planId)).limit(1);
  if (!plan) throw new AppError('PLAN_NOT_FOUND');
  const [user] = await ctx.db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (user.pricingTableId === planId) throw new AppError('ALREADY_SUBSCRIBED');
  const price = dec(plan.price);
  const currency = await planCurrency(ctx.db);
  const wallets = await ctx.db.select().from(balances).where(eq(balances.userId, userId)).orderBy(balances.id);
  const wallet =
    wallets.find((w) => w.id === user.activeBalanceId && w.mode === 'real') ?? wallets.find((w) => w.mode === 'real');
  let charge = '0';
  if (price.gt(0)) {
    if (!wallet) throw new AppError('NOT_ENOUGH_BALANCE');
    const rate = wallet.currency === currency ? 1 : ctx.market.conversionRate(currency, wallet.currency);
    if (!rate) throw new AppError('RATE_UNAVAILABLE');
    charge = price.div(rate).toDecimalPlaces(2, 0).toFixed(2); // rounded up: the broker is never paid less than the price
  }
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
          note: `Plan ${plan.name}: ${formatMoney(plan.price, currency)}`,
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
        after: { planId: plan.id, charged: charge, walletId: wallet?.id ?? null },
      });
      const dto = await insertNotification(tx, userId, {
        title: 'Plan activated',
        description: `You are now on the ${plan.name} plan.`,
        url: '/pricing',
      });
      return { dto, walletBalance };
    });
  const result = wallet ? await onWallet(ctx, wallet.id, apply) : await apply();
  tradingMemoryOf(ctx.db).forgetTrader(userId);
  emitAll(ctx, [{ userId, dto: result.dto }]);
  return `You are now on the ${plan.name} plan.`;
}
