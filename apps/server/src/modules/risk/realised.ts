import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { RealisedQuery, RealisedResponse } from '@platform/domain';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { balances, ledgerEntries, users } from '../../db/schema.ts';
import { customerScope, type StaffActor } from '../../lib/staff-scope.ts';
import { siteCurrency } from './exposure.ts';

type Ctx = Pick<AppContext, 'db' | 'market' | 'risk'>;
type Figures = Omit<RealisedResponse['today'], never>;

/** The clients' ledger kinds a closed trade and its carry write: the house's realised result is their opposite. */
const KINDS = ['trade_pl', 'spread', 'commission', 'swap'] as const;
const DAY = 86_400_000;
const CACHE_MS = 15_000;

const cache = new Map<string, { at: number; value: Promise<Figures> }>();

const round2 = (v: number) => {
  const r = Math.round(v * 100) / 100;
  return r === 0 ? 0 : r;
};

/**
 * Σ of the clients' trade P/L, spread, commission and swap entries in [from, to) per wallet currency, converted into
 * the site currency at today's rate, within the caller's scope and mode. The ledger has no index on time, so a
 * period is read on request and a figure is kept for 15 seconds while no position opened or closed (the desk asks for
 * it every 15 seconds).
 */
async function figures(
  ctx: Ctx,
  actor: Pick<StaffActor, 'id' | 'roleId'>,
  mode: 'real' | 'demo' | 'all',
  from: Date,
  to: Date,
  currency: string,
): Promise<Figures> {
  // A close changes the book's version, so a figure read before it is not served after it.
  const version = ctx.risk.exposureVersion();
  const key = `${actor.roleId === 1 ? 'all' : actor.id}|${mode}|${from.getTime()}|${to.getTime()}|${currency}|${version}`;
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.value;
  const value = (async () => {
    const rows = await ctx.db
      .select({
        currency: balances.currency,
        kind: ledgerEntries.kind,
        sum: sql<string>`sum(${ledgerEntries.amount})`,
      })
      .from(ledgerEntries)
      .innerJoin(balances, eq(balances.id, ledgerEntries.balanceId))
      .innerJoin(users, eq(users.id, balances.userId))
      .where(
        and(
          inArray(ledgerEntries.kind, [...KINDS]),
          gte(ledgerEntries.createdAt, from),
          lt(ledgerEntries.createdAt, to),
          mode === 'all' ? sql`true` : eq(balances.mode, mode),
          customerScope(actor, users.id),
        ),
      )
      .groupBy(balances.currency, ledgerEntries.kind);
    const f: Figures = { house_pl: 0, trade_pl: 0, spread: 0, commission: 0, swap: 0 };
    for (const r of rows) {
      const rate = r.currency === currency ? 1 : ctx.market.conversionRate(r.currency, currency);
      if (!rate) continue;
      const v = Number(r.sum) / rate;
      f[r.kind as (typeof KINDS)[number]] += v;
    }
    f.house_pl = -(f.trade_pl + f.spread + f.commission + f.swap);
    for (const k of Object.keys(f) as Array<keyof Figures>) f[k] = round2(f[k]);
    return f;
  })();
  value.catch(() => cache.delete(key));
  if (cache.size > 200) cache.clear();
  cache.set(key, { at: Date.now(), value });
  return value;
}

const startOfDay = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));

/** GET /admin/risk/realised: the house's realised P/L today (UTC) and over [from, to] (UTC days; default 30 days). */
export async function readRealised(
  ctx: Ctx,
  actor: Pick<StaffActor, 'id' | 'roleId'>,
  q: z.output<typeof RealisedQuery>,
): Promise<RealisedResponse> {
  const currency = await siteCurrency(ctx.db);
  const today = startOfDay(new Date());
  const to = q.to ? new Date(`${q.to}T00:00:00Z`) : today;
  const from = q.from ? new Date(`${q.from}T00:00:00Z`) : new Date(to.getTime() - 29 * DAY);
  const [day, period] = await Promise.all([
    figures(ctx, actor, q.mode, today, new Date(today.getTime() + DAY), currency),
    figures(ctx, actor, q.mode, from, new Date(to.getTime() + DAY), currency),
  ]);
  return {
    currency,
    today: day,
    period: { ...period, from: from.toISOString().slice(0, 10), to: to.toISOString().slice(0, 10) },
  };
}
