import { pendingTrigger, type PendingKindName, type PendingTrigger, type Side } from '@platform/domain';
import type { PendingRow } from './hooks.ts';

/** What the service keeps of a waiting order to trigger and fill it without reading the database first. */
export interface PendingFacts {
  id: number;
  userId: number;
  walletId: number;
  instrumentId: number;
  instrument: string;
  side: Side;
  kind: PendingKindName;
  amount: string;
  price: string;
  limitPrice: string | null;
  profit: string | null;
  loss: string | null;
  activated: boolean;
  /** Milliseconds since the epoch, or null (good till cancelled). */
  expiresAt: number | null;
}

export const factsOf = (r: PendingRow): PendingFacts => ({
  id: r.id,
  userId: r.userId,
  walletId: r.balanceId,
  instrumentId: r.instrumentId,
  instrument: r.instrument,
  side: r.side as Side,
  kind: r.orderType as PendingKindName,
  amount: r.amount,
  price: r.price,
  limitPrice: r.limitPrice,
  profit: r.takeProfit,
  loss: r.stopLoss,
  activated: r.activatedAt !== null,
  expiresAt: r.expiresAt?.getTime() ?? null,
});

/** The book entry of a waiting order: its trigger and the price it waits for. */
export function entryOf(f: PendingFacts): { trigger: PendingTrigger; price: number } {
  const t = pendingTrigger(f.side, f.kind, f.activated);
  return { trigger: t.trigger, price: Number(t.on === 'limitPrice' ? (f.limitPrice ?? f.price) : f.price) };
}

const KIND_LABEL: Record<PendingKindName, string> = { limit: 'Limit', stop: 'Stop', stop_limit: 'Stop Limit' };
/** "Buy Limit", "Sell Stop Limit"... */
export const pendingLabel = (f: Pick<PendingFacts, 'side' | 'kind'>): string =>
  `${f.side === 'buy' ? 'Buy' : 'Sell'} ${KIND_LABEL[f.kind]}`;
