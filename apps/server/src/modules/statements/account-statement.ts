import { and, asc, eq, gte, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { CLOSE_REASON_LABELS, type CloseReason, dec, type Decimal } from '@platform/domain';
import type { AppContext } from '../../context.ts';
import { ledgerEntries, orders, users } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { brokerBrand, type BrokerBrand } from './brand.ts';
import type { StatementWallet } from './service.ts';

/**
 * An account statement as a broker issues it: who issues it, to whom, for which wallet and period; the opening and
 * closing balance; every ledger movement of the period with the running balance; the deals closed in it with their
 * swap and commission; the period's totals by kind; and, for a period that reaches the present, the closing equity
 * with the floating P/L of the open positions. The totals reconcile: opening + Σ movements = closing, and closing is
 * the wallet's balance less what the ledger booked after the period (checked here on every statement).
 */

const DAY_MS = 86_400_000;
/** One statement lists at most this many movements (and deals): a longer period is asked for in parts. */
export const STATEMENT_MAX_ROWS = 20_000;

export interface StatementPeriod {
  /** First instant covered; null = from the wallet's first movement. */
  from: Date | null;
  /** First instant no longer covered (the end of dateEnd, or now when that is later). */
  to: Date;
  dateStart: string | null;
  dateEnd: string | null;
  /** True when the period reaches the present: the closing balance is today's, and equity is shown. */
  current: boolean;
}

/** Whole UTC days [dateStart 00:00, dateEnd 24:00), cut at now; an empty period in the future is as of now. */
export function statementPeriod(q: { dateStart?: string; dateEnd?: string }, now = new Date()): StatementPeriod {
  const from = q.dateStart ? new Date(`${q.dateStart}T00:00:00Z`) : null;
  const end = q.dateEnd ? new Date(Date.parse(`${q.dateEnd}T00:00:00Z`) + DAY_MS) : null;
  if (from && end && from >= end) throw new AppError('INVALID_DATE_RANGE');
  const current = !end || end > now;
  let to = current ? now : end;
  if (from && from > to) to = from;
  return { from, to, dateStart: q.dateStart ?? null, dateEnd: q.dateEnd ?? null, current };
}

/** The group a ledger kind is totalled under, and how one movement of that kind reads. */
const KINDS: Record<string, { group: StatementGroup; label: string }> = {
  deposit: { group: 'deposits', label: 'Deposit' },
  withdrawal_hold: { group: 'withdrawals', label: 'Withdrawal (funds held)' },
  withdrawal_release: { group: 'withdrawals', label: 'Withdrawal declined (funds released)' },
  withdrawal_payout: { group: 'withdrawals', label: 'Withdrawal paid out' },
  trade_pl: { group: 'trading', label: 'Trade profit/loss' },
  spread: { group: 'spread', label: 'Spread' },
  swap: { group: 'swap', label: 'Swap' },
  commission: { group: 'commission', label: 'Commission' },
  adjustment: { group: 'adjustments', label: 'Adjustment' },
  negative_balance_protection: { group: 'protection', label: 'Negative balance protection' },
  plan_charge: { group: 'other', label: 'Plan charge' },
  demo_funding: { group: 'other', label: 'Demo funding' },
  partner_commission: { group: 'other', label: 'Partner commission' },
  seed: { group: 'other', label: 'Initial funding' },
};

export type StatementGroup =
  | 'deposits'
  | 'withdrawals'
  | 'trading'
  | 'spread'
  | 'swap'
  | 'commission'
  | 'adjustments'
  | 'protection'
  | 'other';

/** The summary's lines in the order a statement lists them. */
export const GROUP_LABELS: ReadonlyArray<[StatementGroup, string]> = [
  ['deposits', 'Deposits'],
  ['withdrawals', 'Withdrawals'],
  ['trading', 'Trading profit/loss (before spread)'],
  ['spread', 'Spread'],
  ['swap', 'Swap'],
  ['commission', 'Commission'],
  ['adjustments', 'Adjustments'],
  ['protection', 'Negative balance protection'],
  ['other', 'Other movements'],
];

const kindOf = (kind: string) =>
  KINDS[kind] ?? { group: 'other' as const, label: kind.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase()) };

export interface StatementMovement {
  id: number;
  time: Date;
  kind: string;
  label: string;
  group: StatementGroup;
  /** What it concerns: "Order #12", "Deposit #3"... */
  reference: string;
  note: string;
  amount: Decimal;
  /** Running balance after it: the opening balance plus every movement up to it. */
  balance: Decimal;
}

export interface StatementDeal {
  id: number;
  instrument: string;
  side: 'buy' | 'sell';
  amount: Decimal;
  openTime: Date;
  openRate: Decimal;
  closeTime: Date;
  closeRate: Decimal;
  /** Profit or loss after the spread, as booked at the close. */
  pl: Decimal;
  swap: Decimal;
  commission: Decimal;
  /** P/L + swap + commission: what the deal did to the balance over its life. */
  net: Decimal;
  reason: string;
  partialOf: number | null;
}

export interface AccountStatement {
  broker: BrokerBrand;
  client: { id: number; name: string; email: string };
  wallet: StatementWallet;
  period: StatementPeriod;
  issuedAt: Date;
  opening: Decimal;
  closing: Decimal;
  /** Σ of the period's movements (closing − opening). */
  change: Decimal;
  totals: Array<{ group: StatementGroup; label: string; amount: Decimal; count: number }>;
  movements: StatementMovement[];
  deals: StatementDeal[];
  dealTotals: { pl: Decimal; swap: Decimal; commission: Decimal; net: Decimal };
  /** Equity now (closing balance + floating P/L): only for a period that reaches the present. */
  equity: { floatingPl: Decimal; openPositions: number; equity: Decimal } | null;
}

const refText = (refType: string | null, refId: number | null): string => {
  if (!refType || refId === null) return '';
  const name = { order: 'Order', deposit: 'Deposit', withdrawal: 'Withdrawal', plan: 'Plan', staff: 'Staff' }[refType];
  return `${name ?? refType} #${refId}`;
};

/**
 * Reads a wallet's statement in one read-only snapshot (REPEATABLE READ), so the balance, the sums and the rows
 * listed are of the same moment, and checks that they reconcile.
 */
export async function loadAccountStatement(
  ctx: Pick<AppContext, 'db' | 'risk' | 'objectStore'>,
  userId: number,
  wallet: StatementWallet,
  period: StatementPeriod,
): Promise<AccountStatement> {
  const issuedAt = new Date();
  const broker = await brokerBrand(ctx);
  const { from, to } = period;
  const read = await ctx.db.transaction(
    async (tx) => {
      const [client] = await tx
        .select({ id: users.id, name: users.fullName, email: users.email })
        .from(users)
        .where(eq(users.id, userId));
      const fromAt = from ? sql`${from.toISOString()}::timestamptz` : null;
      const toAt = sql`${to.toISOString()}::timestamptz`;
      const result = (await tx.execute(sql`
        SELECT b.balance::text AS balance,
               coalesce(sum(l.amount) FILTER (WHERE ${fromAt ? sql`l.created_at < ${fromAt}` : sql`false`}), 0)::text AS opening,
               coalesce(sum(l.amount) FILTER (WHERE l.created_at >= ${toAt}), 0)::text AS after,
               count(l.id) FILTER (WHERE ${fromAt ? sql`l.created_at >= ${fromAt}` : sql`true`} AND l.created_at < ${toAt})::int AS n
          FROM balances b LEFT JOIN ledger_entries l ON l.balance_id = b.id
         WHERE b.id = ${wallet.id}
         GROUP BY b.balance`)) as unknown as {
        rows: Array<{ balance: string; opening: string; after: string; n: number }>;
      };
      const [sums] = result.rows;
      const inPeriod = and(
        eq(ledgerEntries.balanceId, wallet.id),
        from ? gte(ledgerEntries.createdAt, from) : undefined,
        lt(ledgerEntries.createdAt, to),
      );
      const closedInPeriod = and(
        eq(orders.balanceId, wallet.id),
        isNotNull(orders.closeTime),
        isNull(orders.voidedAt),
        from ? gte(orders.closeTime, from) : undefined,
        lt(orders.closeTime, to),
      );
      const [{ deals: dealCount }] = await tx
        .select({ deals: sql<number>`count(*)::int` })
        .from(orders)
        .where(closedInPeriod);
      if (sums.n > STATEMENT_MAX_ROWS || dealCount > STATEMENT_MAX_ROWS)
        throw new AppError(
          'VALIDATION',
          `This period has more than ${STATEMENT_MAX_ROWS.toLocaleString('en-US')} movements or deals for one statement: choose a shorter period.`,
        );
      const entries = await tx
        .select()
        .from(ledgerEntries)
        .where(inPeriod)
        .orderBy(asc(ledgerEntries.createdAt), asc(ledgerEntries.id));
      const deals = await tx.select().from(orders).where(closedInPeriod).orderBy(asc(orders.closeTime), asc(orders.id));
      return { client, sums, entries, deals };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );

  const opening = dec(read.sums.opening);
  let running = opening;
  const movements = read.entries.map((e): StatementMovement => {
    const k = kindOf(e.kind);
    running = running.plus(e.amount);
    return {
      id: e.id,
      time: e.createdAt,
      kind: e.kind,
      label: k.label,
      group: k.group,
      reference: refText(e.refType, e.refId),
      note: e.note ?? '',
      amount: dec(e.amount),
      balance: running,
    };
  });
  const closing = running;
  const change = closing.minus(opening);
  // The ledger is the record: what it booked up to the period's end is the wallet's balance less what came after.
  const expected = dec(read.sums.balance).minus(read.sums.after);
  if (!closing.eq(expected))
    throw new Error(
      `Statement of wallet ${wallet.id} does not reconcile: opening ${opening} + movements ${change} = ${closing}, but the balance ${read.sums.balance} less ${read.sums.after} booked after the period is ${expected}`,
    );

  const totals = GROUP_LABELS.map(([group, label]) => {
    const of = movements.filter((m) => m.group === group);
    return { group, label, amount: of.reduce((s, m) => s.plus(m.amount), dec(0)), count: of.length };
  });
  const sumOfTotals = totals.reduce((s, t) => s.plus(t.amount), dec(0));
  if (!opening.plus(sumOfTotals).eq(closing))
    throw new Error(`Statement of wallet ${wallet.id}: the totals by kind (${sumOfTotals}) differ from ${change}`);

  const deals = read.deals.map((o): StatementDeal => {
    const pl = dec(o.proLoss ?? '0');
    const swap = dec(o.swap);
    const commission = dec(o.commission);
    return {
      id: o.id,
      instrument: o.instrument,
      side: o.type as 'buy' | 'sell',
      amount: dec(o.tradeAmount),
      openTime: o.createdAt,
      openRate: dec(o.openRate),
      closeTime: o.closeTime ?? o.createdAt,
      closeRate: dec(o.closeRate ?? '0'),
      pl,
      swap,
      commission,
      net: pl.plus(swap).plus(commission),
      reason: CLOSE_REASON_LABELS[(o.closeReason ?? 'manual') as CloseReason] ?? o.closeReason ?? '',
      partialOf: o.partialOf,
    };
  });
  const sum = (f: (d: StatementDeal) => Decimal) => deals.reduce((s, d) => s.plus(f(d)), dec(0));
  const dealTotals = {
    pl: sum((d) => d.pl),
    swap: sum((d) => d.swap),
    commission: sum((d) => d.commission),
    net: sum((d) => d.net),
  };

  let equity: AccountStatement['equity'] = null;
  if (period.current) {
    const floatingPl = dec(dec(ctx.risk.unrealizedPl(wallet.id) || 0).toFixed(2));
    equity = { floatingPl, openPositions: ctx.risk.openPositions(wallet.id), equity: closing.plus(floatingPl) };
  }
  return {
    broker,
    client: read.client,
    wallet,
    period,
    issuedAt,
    opening,
    closing,
    change,
    totals,
    movements,
    deals,
    dealTotals,
    equity,
  };
}
