import { useQueries, useQueryClient } from '@tanstack/react-query';
import { dec, type Decimal, type OrderDto } from '@platform/domain';
import { useCurrentUser } from '../../api/hooks.ts';
import { useRealtimeEvent } from '../../api/realtime.ts';
import { fetchRate, refreshTrading, tradingKeys, useOpenOrders, type OrdersChangedEvent } from './api.ts';
import { openPositionProfitLoss } from './figures.ts';
import { useLivePrices, useQuotes } from './quotes.ts';

export interface LivePositions {
  /** Open positions of the active wallet. */
  orders: OrderDto[];
  isLoading: boolean;
  /** Live P/L per open order id in the wallet currency; null until its instrument has a price. */
  profitLoss: ReadonlyMap<number, Decimal | null>;
  /** Sum of the live P/L of every open position. */
  totalProfitLoss: Decimal;
  currency: string | null;
}

/** How often the conversion rates used for open P/L are refreshed; prices themselves are live. */
const RATE_REFRESH_MS = 60_000;

/**
 * Open positions of the active wallet with their live profit/loss, shared by the top bar and the dashboard.
 * Prices come from `priceUpdate`; `ordersChanged` (a position opened, modified, or closed by its owner, by staff
 * or by the server's risk engine) reloads the positions and the wallet. The browser never closes a position
 * by itself: take-profit, stop-loss and stop-out are the server's job.
 */
export function useLivePositions(): LivePositions {
  const client = useQueryClient();
  const { data: current } = useCurrentUser();
  const active = current?.activeBalance ?? null;
  useLivePrices();
  const open = useOpenOrders(active !== null);
  useRealtimeEvent<OrdersChangedEvent>('ordersChanged', () => void refreshTrading(client));

  const orders = active ? (open.data ?? []) : [];
  const currency = active?.currency ?? null;
  // Positions quoted in the wallet currency convert at 1; the others need the rate of their quote currency.
  const quotes = [...new Set(orders.map((o) => o.quote_symbol))].filter((q) => q !== currency).sort();
  const rates = useQueries({
    queries: quotes.map((quote) => ({
      queryKey: tradingKeys.rate(quote),
      queryFn: () => fetchRate(quote),
      staleTime: RATE_REFRESH_MS,
      refetchInterval: RATE_REFRESH_MS,
    })),
  });
  const rateOf = new Map<string, string>();
  quotes.forEach((q, i) => {
    const r = rates[i]?.data?.rate;
    if (r) rateOf.set(q, r);
  });

  const prices = useQuotes();
  const profitLoss = new Map<number, Decimal | null>();
  let total = dec(0);
  for (const o of orders) {
    const rate = o.quote_symbol === currency ? '1' : rateOf.get(o.quote_symbol);
    const pl = openPositionProfitLoss(o, prices.get(o.instrument), rate);
    profitLoss.set(o.id, pl);
    if (pl) total = total.plus(pl);
  }
  return { orders, isLoading: open.isLoading, profitLoss, totalProfitLoss: total, currency };
}
