import { and, isNull, count, desc, eq, gte, isNotNull, lt, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import {
  CLOSE_REASON_LABELS,
  type CloseReason,
  type StatementDto,
  type StatementsQuery,
  type StatementsResponse,
} from '@platform/domain';
import type { Db, DbOrTx } from '../../db/client.ts';
import { balances, orders } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { offsetOf, pageMeta } from '../../lib/paging.ts';
import { loadTrader } from '../trading/trader.ts';
import { neutraliseFormula } from '../../lib/csv-export.ts';

type Query = z.output<typeof StatementsQuery>;
type OrderRow = typeof orders.$inferSelect;

const DAY_MS = 86_400_000;

export interface StatementWallet {
  id: number;
  currency: string;
  mode: string;
}

/**
 * The wallet a statement covers: `walletId` when it is one of the caller's own wallets (real or demo; another
 * user's, or none, is "Wallet not found"), else the caller's active wallet (null when they have none).
 */
export async function statementWallet(
  db: Db,
  userId: number,
  walletId: number | undefined,
): Promise<StatementWallet | null> {
  if (walletId === undefined) {
    const trader = await loadTrader(db, userId).catch(() => null);
    return trader?.wallet ?? null;
  }
  const [w] = await db
    .select({ id: balances.id, currency: balances.currency, mode: balances.mode })
    .from(balances)
    .where(and(eq(balances.id, walletId), eq(balances.userId, userId)))
    .limit(1);
  if (!w) throw new AppError('WALLET_NOT_FOUND');
  return w;
}

/** Closed trades of the chosen wallet whose close falls in [dateStart 00:00, dateEnd 24:00) UTC. */
async function closedTradesFilter(db: Db, userId: number, q: Query): Promise<SQL | undefined> {
  const from = q.dateStart ? new Date(`${q.dateStart}T00:00:00Z`) : null;
  const to = q.dateEnd ? new Date(Date.parse(`${q.dateEnd}T00:00:00Z`) + DAY_MS) : null;
  if ((from && Number.isNaN(from.getTime())) || (to && Number.isNaN(to.getTime())))
    throw new AppError('VALIDATION', 'Use the date format YYYY-MM-DD');
  if (from && to && from >= to) throw new AppError('INVALID_DATE_RANGE');
  const wallet = await statementWallet(db, userId, q.walletId);
  if (!wallet) return undefined;
  return and(
    eq(orders.balanceId, wallet.id),
    isNotNull(orders.closeTime),
    isNull(orders.voidedAt),
    from ? gte(orders.closeTime, from) : undefined,
    to ? lt(orders.closeTime, to) : undefined,
  );
}

function statementDto(o: OrderRow): StatementDto {
  const reason = (o.closeReason ?? 'manual') as CloseReason;
  return {
    id: o.id,
    created_at: o.createdAt.toISOString(),
    close_time: (o.closeTime ?? o.createdAt).toISOString(),
    instrument: o.instrument,
    type: o.type as StatementDto['type'],
    trade_amount: o.tradeAmount,
    open_rate: o.openRate,
    close_rate: o.closeRate ?? '0',
    spread: o.spread,
    pro_loss: o.proLoss ?? '0',
    status: CLOSE_REASON_LABELS[reason],
    close_reason: reason,
    partial_of: o.partialOf,
  };
}

/** GET /statements/history: closed trades, newest close first, 15 per page by default. */
export async function statementHistory(db: DbOrTx, userId: number, q: Query): Promise<StatementsResponse> {
  const where = await closedTradesFilter(db, userId, q);
  if (!where) return { data: [], meta: pageMeta(q, 0) };
  const [rows, [{ n }]] = await Promise.all([
    db
      .select()
      .from(orders)
      .where(where)
      .orderBy(desc(orders.closeTime), desc(orders.id))
      .limit(q.limit)
      .offset(offsetOf(q)),
    db.select({ n: count() }).from(orders).where(where),
  ]);
  return { data: rows.map(statementDto), meta: pageMeta(q, n) };
}

/** A cell for CSV (RFC 4180), neutralising spreadsheet formulas in text cells. */
function csvCell(v: string): string {
  const safe = neutraliseFormula(v);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const STATEMENT_COLUMNS = [
  'ID',
  'Open Time',
  'Close Time',
  'Instrument',
  'Type',
  'Amount',
  'Open Rate',
  'Close Rate',
  'Spread',
  'Profit/Loss',
  'Status',
] as const;

/** GET /statements/export: every closed trade in the range as CSV, in pages so a long history streams. */
export async function* statementCsv(db: DbOrTx, userId: number, q: Query): AsyncGenerator<string> {
  const where = await closedTradesFilter(db, userId, q);
  yield '\ufeff' + STATEMENT_COLUMNS.join(',') + '\r\n';
  if (!where) return;
  const PAGE = 1000;
  for (let offset = 0; ; offset += PAGE) {
    const rows = await db
      .select()
      .from(orders)
      .where(where)
      .orderBy(desc(orders.closeTime), desc(orders.id))
      .limit(PAGE)
      .offset(offset);
    if (rows.length === 0) return;
    yield rows
      .map(statementDto)
      .map(
        (s) =>
          [
            String(s.id),
            s.created_at,
            s.close_time,
            s.instrument,
            s.type,
            s.trade_amount,
            s.open_rate,
            s.close_rate,
            s.spread,
            s.pro_loss,
            s.status,
          ]
            .map(csvCell)
            .join(',') + '\r\n',
      )
      .join('');
    if (rows.length < PAGE) return;
  }
}
