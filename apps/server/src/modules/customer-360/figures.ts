import { and, eq, inArray } from 'drizzle-orm';
import { dec, type Customer360, type KycListStatus } from '@platform/domain';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { balances, users } from '../../db/schema.ts';

type Ctx = { db: DbOrTx } & Pick<AppContext, 'realtime' | 'risk'>;

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

/**
 * The live equity of a wallet: its balance (exact, from the database) plus the floating P/L the risk engine holds
 * now, rounded to the cent. Every instance's engine follows every open position; a wallet without any has none.
 */
export function liveEquity(risk: Pick<AppContext['risk'], 'unrealizedPl'>, walletId: number, balance: string): string {
  const pl = risk.unrealizedPl(walletId);
  return dec(balance)
    .plus(Number.isFinite(pl) ? pl.toFixed(2) : '0')
    .toFixed(2);
}

/** A customer's row and main real wallet (null columns without one), as the lists read them. */
export interface CustomerFigureRow {
  id: number;
  ftdAt: Date | null;
  ftdAmount: string | null;
  ftdCurrency: string | null;
  kycStatus: string;
  lastLoginAt: Date | null;
  walletId: number | null;
  currency: string | null;
  balance: string | null;
}

/** The Customer 360 figures of a customer's row, with the engine's live equity and the presence given. */
export function figuresOf(
  risk: Pick<AppContext['risk'], 'unrealizedPl'>,
  r: CustomerFigureRow,
  online: ReadonlySet<number>,
): Customer360 {
  return {
    wallet_id: r.walletId,
    currency: r.currency,
    balance: r.balance,
    equity: r.walletId !== null && r.balance !== null ? liveEquity(risk, r.walletId, r.balance) : null,
    ftd_at: iso(r.ftdAt),
    ftd_amount: r.ftdAmount,
    ftd_currency: r.ftdCurrency,
    kyc_status: r.kycStatus as KycListStatus,
    last_login_at: iso(r.lastLoginAt),
    online: online.has(r.id),
  };
}

/**
 * The Customer 360 figures of the customers on a page, by user id (one statement for the page's users and their main
 * real wallets, the engine's live equity, one presence question). `online` answers what the caller already knows.
 */
export async function customerFigures(
  ctx: Ctx,
  userIds: readonly number[],
  known?: { online?: ReadonlySet<number> },
): Promise<Map<number, Customer360>> {
  const out = new Map<number, Customer360>();
  if (userIds.length === 0) return out;
  const rows = await ctx.db
    .select({
      id: users.id,
      ftdAt: users.ftdAt,
      ftdAmount: users.ftdAmount,
      ftdCurrency: users.ftdCurrency,
      kycStatus: users.kycStatus,
      lastLoginAt: users.lastLoginAt,
      walletId: balances.id,
      currency: balances.currency,
      balance: balances.balance,
    })
    .from(users)
    .leftJoin(balances, and(eq(balances.userId, users.id), eq(balances.main, true)))
    .where(inArray(users.id, [...userIds]));
  const online = known?.online ?? (await ctx.realtime.onlineUsers(userIds));
  for (const r of rows) out.set(r.id, figuresOf(ctx.risk, r, online));
  return out;
}
