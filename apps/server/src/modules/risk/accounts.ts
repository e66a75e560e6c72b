import { and, eq, inArray, sql } from 'drizzle-orm';
import type { RiskAccountDto, RiskAccountsQuery, RiskAccountsResponse } from '@platform/domain';
import type { AppContext } from '../../context.ts';
import { balances, users } from '../../db/schema.ts';
import { customerScope, type StaffActor } from '../../lib/staff-scope.ts';

const round2 = (v: number) => Math.round(v * 100) / 100;

/**
 * GET /admin/risk/accounts: wallets holding margin, lowest margin level first, with balance, equity, margin, free
 * margin, margin level, open positions and whether their margin call is on. The figures are the risk engine's live
 * ones (no query per position); the database only says whose wallet it is, within the caller's scope (a manager's
 * customers), and which mode it is.
 */
export async function listAccountsAtRisk(
  ctx: Pick<AppContext, 'db' | 'risk'>,
  actor: Pick<StaffActor, 'id' | 'roleId'>,
  q: { page: number; limit: number; mode: NonNullable<RiskAccountsQuery['mode']> },
): Promise<RiskAccountsResponse> {
  const live = ctx.risk.walletsAtRisk();
  const owners = new Map<number, { userId: number; name: string; email: string; currency: string; mode: string }>();
  // In slices, so a book of many wallets never becomes one huge parameter.
  for (let i = 0; i < live.length; i += 5000) {
    const ids = live.slice(i, i + 5000).map((w) => w.walletId);
    const rows = await ctx.db
      .select({
        walletId: balances.id,
        userId: users.id,
        name: users.fullName,
        email: users.email,
        currency: balances.currency,
        mode: balances.mode,
      })
      .from(balances)
      .innerJoin(users, eq(users.id, balances.userId))
      .where(
        and(
          inArray(balances.id, ids),
          customerScope(actor, users.id),
          q.mode === 'all' ? sql`true` : eq(balances.mode, q.mode),
        ),
      );
    for (const r of rows) owners.set(r.walletId, r);
  }
  const listed = live.filter((w) => owners.has(w.walletId));
  const page = listed.slice((q.page - 1) * q.limit, q.page * q.limit);
  const data: RiskAccountDto[] = page.map((w) => {
    const o = owners.get(w.walletId)!;
    return {
      wallet_id: w.walletId,
      user_id: o.userId,
      name: o.name,
      email: o.email,
      currency: o.currency,
      mode: o.mode,
      balance: round2(w.balance),
      equity: round2(w.equity),
      margin: round2(w.margin),
      free_margin: round2(w.equity - w.margin),
      margin_level: w.marginLevel === null ? null : round2(w.marginLevel),
      positions: w.positions,
      margin_call: w.marginCall,
    };
  });
  return { data, meta: { total: listed.length, per_page: q.limit, page: q.page } };
}
