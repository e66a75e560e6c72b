import { dec, toFixed, type MoneyInput } from '@platform/domain';

export interface AccountFigures {
  balance: string;
  profitLoss: string;
  equity: string;
  usedMargin: string;
  freeMargin: string;
  /** Percent with 2 decimals, or null when no margin is used (the level is undefined then). */
  marginLevel: string | null;
}

/**
 * Top-bar figures of the active wallet (spec §3). Free margin = balance − margin + P/L and
 * equity = margin + free margin, i.e. balance + P/L. The spec writes "+ P/L" a second time in equity,
 * which would count the open profit twice; we count it once.
 */
export function accountFigures(balance: MoneyInput, margin: MoneyInput, profitLoss: MoneyInput = 0): AccountFigures {
  const b = dec(balance);
  const m = dec(margin);
  const pl = dec(profitLoss);
  const free = b.minus(m).plus(pl);
  const equity = m.plus(free);
  return {
    balance: b.toString(),
    profitLoss: pl.toString(),
    equity: equity.toString(),
    usedMargin: m.toString(),
    freeMargin: free.toString(),
    marginLevel: marginLevel(equity, m),
  };
}

/** Equity ÷ used margin × 100 to 2 decimals; null when no margin is used (shown as "-"). */
export function marginLevel(equity: MoneyInput, usedMargin: MoneyInput): string | null {
  const m = dec(usedMargin);
  if (m.isZero()) return null;
  return toFixed(dec(equity).div(m).times(100), 2);
}

export function formatMarginLevel(level: string | null): string {
  return level === null ? '-' : `${level}%`;
}

/** How close a wallet is to a margin call or stop-out: the top bar colours its margin level by it. */
export type MarginLevelState = 'ok' | 'warning' | 'danger';

/** How a margin level is coloured by its state: orange to warn, red in danger. */
export const MARGIN_LEVEL_COLORS: Record<MarginLevelState, string | undefined> = {
  ok: undefined,
  warning: 'orange',
  danger: 'red',
};

/**
 * Danger at or below the stop-out level, warning at or below the plan's margin-call level (null: the plan makes no
 * call) or while the server says the wallet's call is on; ok otherwise, and always without margin held.
 */
export function marginLevelState(
  level: string | null,
  p: { marginCallLevel?: number | null; stopoutLevel?: number; called?: boolean },
): MarginLevelState {
  if (level === null) return 'ok';
  if (p.stopoutLevel !== undefined && dec(level).lte(p.stopoutLevel)) return 'danger';
  if (p.called || (p.marginCallLevel != null && dec(level).lte(p.marginCallLevel))) return 'warning';
  return 'ok';
}
