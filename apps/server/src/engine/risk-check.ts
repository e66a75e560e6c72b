import { eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { balances, orders, pricingPlans, users } from '../db/schema.ts';
import type { RiskEngine } from './risk-engine.ts';

type WalletFigures = { balance: number; margin: number; positions: number };

/** What RiskService.check answers. */
export interface RiskCheck {
  /** Whether this instance acts on the engine's verdicts. */
  leader: boolean;
  tracked: number;
  open: number;
  phantom: number[];
  missing: number[];
  walletsOff: Array<{ id: number; engine: WalletFigures | null; database: WalletFigures | null }>;
}

/** Every open position with its wallet and its plan's stop-out and margin-call levels, in one statement (one snapshot). */
export function readOpenPositions(db: AppContext['db']) {
  return db
    .select({
      order: orders,
      balance: balances.balance,
      currency: balances.currency,
      stopout: pricingPlans.forexStopout,
      callLevel: pricingPlans.marginCallLevel,
      callRearm: pricingPlans.marginCallRearm,
      calledAt: balances.marginCallAt,
    })
    .from(orders)
    .innerJoin(balances, eq(balances.id, orders.balanceId))
    .innerJoin(users, eq(users.id, orders.userId))
    .leftJoin(pricingPlans, eq(pricingPlans.id, users.pricingTableId))
    .where(isNull(orders.closeTime));
}

export type OpenPositionRow = Awaited<ReturnType<typeof readOpenPositions>>[number];

/**
 * The engine against the database: positions tracked but closed there (phantom), open there but not tracked
 * (missing), and wallets whose balance, used margin or number of positions differ. Under load a change committed but
 * not yet applied shows for a moment; a difference that stays is a fault.
 */
export function compareWithDatabase(
  engine: RiskEngine,
  rows: readonly OpenPositionRow[],
  seen: { leader: boolean; tracked: readonly number[]; wallets: Iterable<number> },
): RiskCheck {
  const open = new Set(rows.map((r) => r.order.id));
  const tracked = new Set(seen.tracked);
  const db = new Map<number, WalletFigures>();
  for (const r of rows) {
    const w = db.get(r.order.balanceId) ?? { balance: Number(r.balance), margin: 0, positions: 0 };
    w.margin += Number(r.order.marginUsed);
    w.positions++;
    db.set(r.order.balanceId, w);
  }
  const walletsOff: RiskCheck['walletsOff'] = [];
  const near = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b));
  for (const id of new Set([...db.keys(), ...seen.wallets])) {
    const e = engine.walletState(id);
    const inEngine = e ? { balance: e.balance, margin: e.margin, positions: e.positions } : null;
    const database = db.get(id) ?? null;
    if (!inEngine?.positions && !database) continue;
    if (!inEngine || !database || inEngine.positions !== database.positions)
      walletsOff.push({ id, engine: inEngine, database });
    else if (!near(inEngine.balance, database.balance) || !near(inEngine.margin, database.margin))
      walletsOff.push({ id, engine: inEngine, database });
  }
  return {
    leader: seen.leader,
    tracked: tracked.size,
    open: open.size,
    phantom: seen.tracked.filter((id) => !open.has(id)),
    missing: [...open].filter((id) => !tracked.has(id)),
    walletsOff,
  };
}
