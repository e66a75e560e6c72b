import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type {
  ChartInterval,
  Candle,
  CategoryName,
  FavoriteDto,
  InstrumentDto,
  LotStateResponse,
  MarketStatus,
  OrdersResponse,
  RateResponse,
  ServerEvents,
} from '@platform/domain';
import { apiGet } from '../../api/client.ts';
import { queryKeys } from '../../api/hooks.ts';
import { useRealtimeEvent } from '../../api/realtime.ts';

/** Query keys of the trading screens; everything under 'trading' belongs to the active wallet's session. */
export const tradingKeys = {
  instruments: ['trading', 'instruments'] as const,
  marketStatus: ['trading', 'market-status'] as const,
  orders: ['trading', 'orders'] as const,
  openOrders: ['trading', 'orders', 'open'] as const,
  ordersPage: (page: number, limit: number) => ['trading', 'orders', 'all', page, limit] as const,
  favorites: ['trading', 'favorites'] as const,
  rate: (quote: string) => ['trading', 'rates', quote] as const,
  lotState: (category: CategoryName, instrument?: string) =>
    instrument
      ? (['trading', 'lot-state', category, instrument] as const)
      : (['trading', 'lot-state', category] as const),
  candles: (symbol: string, interval: ChartInterval = '1d') => ['trading', 'candles', symbol, interval] as const,
  /** The History tab's pages (closed deals and ended pending orders). */
  history: ['trading', 'history'] as const,
};

export type OrdersChangedEvent = Parameters<ServerEvents['ordersChanged']>[0];

/** The instrument catalogue with the quotes of the moment; live prices then come from `priceUpdate`. */
export function useInstruments() {
  const client = useQueryClient();
  // Staff changed the catalogue (a new instrument, tradability, a rename): reload it at once.
  useRealtimeEvent('instrumentsChanged', () => void client.invalidateQueries({ queryKey: tradingKeys.instruments }));
  return useQuery({
    queryKey: tradingKeys.instruments,
    queryFn: () => apiGet<InstrumentDto[]>('/dashboard/instruments'),
    staleTime: 5 * 60_000,
  });
}

/** Open/closed per market, kept current by the `marketStatus` event. */
export function useMarketStatus() {
  const client = useQueryClient();
  useRealtimeEvent<MarketStatus>('marketStatus', (status) => client.setQueryData(tradingKeys.marketStatus, status));
  return useQuery({
    queryKey: tradingKeys.marketStatus,
    queryFn: () => apiGet<MarketStatus>('/dashboard/market-status'),
    staleTime: 60_000,
  });
}

/** Every open position of the active wallet (the server ignores paging for `status=open`). */
export function useOpenOrders(enabled: boolean) {
  return useQuery({
    queryKey: tradingKeys.openOrders,
    queryFn: async () => (await apiGet<OrdersResponse>('/dashboard/orders', { status: 'open' })).data,
    enabled,
  });
}

export function useOrdersPage(page: number, limit: number) {
  return useQuery({
    queryKey: tradingKeys.ordersPage(page, limit),
    queryFn: () => apiGet<OrdersResponse>('/dashboard/orders', { status: 'all', page, limit }),
    placeholderData: (previous) => previous,
  });
}

export function useFavorites() {
  return useQuery({ queryKey: tradingKeys.favorites, queryFn: () => apiGet<FavoriteDto[]>('/dashboard/get-favorite') });
}

/** Quote-currency units per unit of the wallet currency; 1 needs no call when both are the same. */
export function fetchRate(quote: string): Promise<RateResponse> {
  return apiGet<RateResponse>('/dashboard/rates', { quote });
}

/** The order dialog loads the rate afresh each time it opens (spec §4). */
export function useRate(quote: string, enabled: boolean) {
  return useQuery({
    queryKey: tradingKeys.rate(quote),
    queryFn: () => fetchRate(quote),
    enabled,
    staleTime: 0,
    retry: false,
  });
}

/** The lot mode of a category and its presets in units of `instrument` (its contract size), as the server offers. */
export function useLotState(category: CategoryName, enabled: boolean, instrument?: string) {
  return useQuery({
    queryKey: tradingKeys.lotState(category, instrument),
    queryFn: () =>
      apiGet<LotStateResponse>(
        `/dashboard/lot-state/${category}${instrument ? `?instrument=${encodeURIComponent(instrument)}` : ''}`,
      ),
    enabled,
    staleTime: 0,
    retry: false,
  });
}

export function useCandles(symbol: string, interval: ChartInterval = '1d') {
  return useQuery({
    queryKey: tradingKeys.candles(symbol, interval),
    queryFn: () => apiGet<Candle[]>('/market/candles', { symbol, interval, limit: 500 }),
    // Longer bars change slowly between visits; the live bid moves the last bar meanwhile.
    staleTime: interval === '1d' ? 10 * 60_000 : 60_000,
  });
}

/**
 * After a position opens, closes or changes: reload the positions and the wallet figures, and mark the history stale
 * (reloaded now if on screen, else when its tab opens). Several screens may ask at once; an in-flight reload is
 * joined rather than restarted.
 */
export function refreshTrading(client: QueryClient): Promise<unknown> {
  return Promise.all([
    client.invalidateQueries({ queryKey: tradingKeys.orders }, { cancelRefetch: false }),
    client.invalidateQueries({ queryKey: queryKeys.currentUser }, { cancelRefetch: false }),
    client.invalidateQueries({ queryKey: tradingKeys.history }, { cancelRefetch: false }),
  ]);
}
