import { and, count, desc, eq } from 'drizzle-orm';
import type { StopoutReportDto, StopoutReportsResponse, StopoutsQuery } from '@platform/domain';
import type { DbOrTx } from '../../db/client.ts';
import { balances, stopoutReports } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { offsetOf, pageMeta } from '../../lib/paging.ts';

const num = (v: string | null | undefined): string => (v === null || v === undefined ? '0' : String(v));

/**
 * GET /statements/stopouts (the caller's) and /admin/customers/{id}/stopouts (a customer's): the stop-out reports of
 * a user, newest first, optionally of one of their wallets (another user's wallet is "Wallet not found").
 */
export async function listStopouts(db: DbOrTx, userId: number, q: StopoutsQuery): Promise<StopoutReportsResponse> {
  if (q.walletId !== undefined) {
    const [own] = await db
      .select({ id: balances.id })
      .from(balances)
      .where(and(eq(balances.id, q.walletId), eq(balances.userId, userId)))
      .limit(1);
    if (!own) throw new AppError('WALLET_NOT_FOUND');
  }
  const where = and(
    eq(stopoutReports.userId, userId),
    q.walletId !== undefined ? eq(stopoutReports.balanceId, q.walletId) : undefined,
  );
  const [rows, [{ n }]] = await Promise.all([
    db
      .select({ r: stopoutReports, currency: balances.currency, mode: balances.mode })
      .from(stopoutReports)
      .innerJoin(balances, eq(balances.id, stopoutReports.balanceId))
      .where(where)
      .orderBy(desc(stopoutReports.createdAt), desc(stopoutReports.id))
      .limit(q.limit)
      .offset(offsetOf(q)),
    db.select({ n: count() }).from(stopoutReports).where(where),
  ]);
  return { data: rows.map(({ r, currency, mode }) => stopoutDto(r, currency, mode)), meta: pageMeta(q, n) };
}

function stopoutDto(r: typeof stopoutReports.$inferSelect, currency: string, mode: string): StopoutReportDto {
  return {
    id: r.id,
    wallet_id: r.balanceId,
    currency,
    mode,
    created_at: r.createdAt.toISOString(),
    margin_level: r.marginLevel,
    equity: r.equity,
    balance: r.balance,
    protection_credit: r.protectionCredit,
    positions: (r.positions ?? []).map((p) => ({
      id: Number(p.id),
      instrument: String(p.instrument),
      side: p.side === 'sell' ? 'sell' : 'buy',
      amount: num(p.amount),
      price: num(p.price),
      pl: num(p.pl),
    })),
  };
}
