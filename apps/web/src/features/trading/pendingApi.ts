import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { HistoryResponse, PendingOrdersResponse, ServerEvents } from '@platform/domain';
import { apiGet } from '../../api/client.ts';
import { useRealtimeEvent } from '../../api/realtime.ts';
import { refreshTrading, tradingKeys } from './api.ts';

/** Under 'trading' like the positions: a wallet switch starts them afresh. */
export const pendingKeys = {
  list: ['trading', 'pending-orders'] as const,
  history: tradingKeys.history,
  historyPage: (page: number, limit: number) => ['trading', 'history', page, limit] as const,
};

export type PendingOrdersChangedEvent = Parameters<ServerEvents['pendingOrdersChanged']>[0];

/** Reloads the pending orders and the history (a pending order placed, changed, filled, cancelled or expired). */
export function refreshPending(client: QueryClient): Promise<unknown> {
  return Promise.all([
    client.invalidateQueries({ queryKey: pendingKeys.list }, { cancelRefetch: false }),
    client.invalidateQueries({ queryKey: pendingKeys.history }, { cancelRefetch: false }),
  ]);
}

/**
 * The active wallet's pending orders, kept live by `pendingOrdersChanged`. A fill opens a position, so it also
 * reloads the positions and the wallet (the server reports the position too; an in-flight reload is joined).
 */
export function usePendingOrders(enabled = true) {
  const client = useQueryClient();
  useRealtimeEvent<PendingOrdersChangedEvent>('pendingOrdersChanged', (change) => {
    void refreshPending(client);
    if (change.status === 'filled') void refreshTrading(client);
  });
  return useQuery({
    queryKey: pendingKeys.list,
    queryFn: async () => (await apiGet<PendingOrdersResponse>('/dashboard/pending-orders')).data,
    enabled,
  });
}

/** One page of the history: closed deals (partial closes too) and pending orders that ended, newest first. */
export function useOrderHistory(page: number, limit: number) {
  const client = useQueryClient();
  // A close by the owner, the risk engine or staff adds a deal.
  useRealtimeEvent('ordersChanged', () =>
    client.invalidateQueries({ queryKey: pendingKeys.history }, { cancelRefetch: false }),
  );
  return useQuery({
    // Opening the tab always shows the latest.
    staleTime: 0,
    queryKey: pendingKeys.historyPage(page, limit),
    queryFn: () => apiGet<HistoryResponse>('/dashboard/orders/history', { page, limit }),
    placeholderData: (previous) => previous,
  });
}
