import { useEffect, useRef } from 'react';
import { act } from '@testing-library/react';
import type {
  CategoryName,
  CurrentUserResponse,
  FavoriteDto,
  HistoryEntry,
  InstrumentDto,
  LotStateResponse,
  MarketStatus,
  OrderDto,
  PendingOrderDto,
} from '@platform/domain';
import { vi } from 'vitest';
import { brandingFixture, currentUserFixture } from '../../test/fixtures.ts';

/** Test data of the trading screens: a small universe across the five categories. */
const ROWS: Array<[number, string, string, string, string, CategoryName, number, number, number]> = [
  [1, 'USD_CNH', 'USD', 'CNH', 'US Dollar / Chinese Yuan', 'forex', 5, 7.241, 7.2422],
  [2, 'EUR_USD', 'EUR', 'USD', 'Euro / US Dollar', 'forex', 5, 1.0851, 1.0853],
  [3, 'EUR_GBP', 'EUR', 'GBP', 'Euro / British Pound', 'forex', 5, 0.8542, 0.8544],
  [4, 'EUR_JPY', 'EUR', 'JPY', 'Euro / Japanese Yen', 'forex', 3, 164.093, 164.111],
  [5, 'USD_JPY', 'USD', 'JPY', 'US Dollar / Japanese Yen', 'forex', 3, 151.209, 151.221],
  [6, 'XAU_USD', 'XAU', 'USD', 'Gold', 'commodity', 2, 2651.25, 2651.55],
  [7, 'SPX500_USD', 'SPX500', 'USD', 'US S&P 500', 'index', 1, 5901.1, 5901.6],
  [8, 'AAPL_USD', 'AAPL', 'USD', 'Apple Inc.', 'stock', 2, 228.5, 228.54],
  [9, 'BTC_USD', 'BTC', 'USD', 'Bitcoin', 'crypto', 2, 91244.5, 91256.5],
];

const LEVERAGE: Record<CategoryName, number> = { forex: 100, commodity: 50, index: 50, stock: 10, crypto: 5 };

export function instrumentsFixture(): InstrumentDto[] {
  return ROWS.map(([id, name, base, quote, alias, category, digits, bids, asks]) => ({
    id,
    name,
    base,
    quote,
    alias,
    category,
    tradable: true,
    tradingview: 'OANDA',
    leverage: LEVERAGE[category],
    swap: '0',
    swap_long: '0',
    swap_short: '0',
    swapLong: '0',
    swapShort: '0',
    digits,
    bids,
    asks,
    closeoutBid: bids,
    closeoutAsk: asks,
  }));
}

export const instrumentFixture = (name: string): InstrumentDto => {
  const found = instrumentsFixture().find((i) => i.name === name);
  if (!found) throw new Error(`No test instrument ${name}`);
  return found;
};

export const marketOpen: MarketStatus = { fx: 'open', stock: 'open', crypto: 'open' };

export function orderFixture(overrides: Partial<OrderDto> = {}): OrderDto {
  return {
    id: 101,
    balance_id: 11,
    created_at: '2025-03-04T09:15:00Z',
    type: 'buy',
    instrument: 'EUR_USD',
    base_symbol: 'EUR',
    quote_symbol: 'USD',
    kind: 'forex',
    trade_amount: '10000',
    open_rate: '1.08000',
    close_rate: null,
    close_time: null,
    profit: null,
    loss: null,
    spread: '2.00000',
    exchange_rate: '1',
    margin_used: '108.00',
    leverage: 100,
    pro_loss: null,
    close_reason: null,
    trailing_distance: null,
    trailing_step: null,
    partial_of: null,
    pending_order_id: null,
    swap: '0',
    commission: '0',
    ...overrides,
  };
}

export function pendingOrderFixture(overrides: Partial<PendingOrderDto> = {}): PendingOrderDto {
  return {
    id: 201,
    balance_id: 11,
    created_at: '2025-03-04T10:00:00Z',
    updated_at: '2025-03-04T10:00:00Z',
    type: 'buy',
    order_type: 'limit',
    instrument: 'EUR_USD',
    kind: 'forex',
    amount: '10000',
    price: '1.08000',
    limit_price: null,
    profit: null,
    loss: null,
    expiry: 'gtc',
    expires_at: null,
    status: 'pending',
    reason: null,
    activated_at: null,
    oco_id: null,
    order_id: null,
    fill_price: null,
    closed_at: null,
    ...overrides,
  };
}

type Listener = (payload: unknown) => void;
const listeners = new Map<string, Set<Listener>>();

/**
 * Stand-in for api/realtime.ts in tests: subscriptions are kept in memory and `emitRealtime` pushes an event
 * to every mounted subscriber, as the socket would. Use with
 * `vi.mock('../../api/realtime.ts', async () => (await import('./testing.ts')).realtimeModule)`.
 */
export const realtimeModule = {
  useRealtimeEvent<T>(event: string | null | undefined, handler: (payload: T) => void): void {
    const ref = useRef(handler);
    useEffect(() => {
      ref.current = handler;
    });
    useEffect(() => {
      if (!event) return;
      const fn: Listener = (payload) => ref.current(payload as T);
      const set = listeners.get(event) ?? new Set<Listener>();
      listeners.set(event, set);
      set.add(fn);
      return () => {
        set.delete(fn);
      };
    }, [event]);
  },
  disconnectRealtime: (): void => undefined,
  reconnectRealtime: (): void => undefined,
};

export function emitRealtime(event: string, payload: unknown): void {
  act(() => {
    for (const fn of listeners.get(event) ?? []) fn(payload);
  });
}

export interface TradingApiOptions {
  instruments?: InstrumentDto[];
  marketStatus?: MarketStatus;
  openOrders?: OrderDto[];
  allOrders?: OrderDto[];
  pendingOrders?: PendingOrderDto[];
  history?: HistoryEntry[];
  favorites?: FavoriteDto[];
  rate?: string;
  lotState?: LotStateResponse;
  user?: CurrentUserResponse;
  /** Answers tried before the defaults (e.g. the order placement under test). */
  extra?: TradingResponder;
}

export type TradingResponder = (
  method: string,
  path: string,
  body: unknown,
  query: URLSearchParams,
) => { status?: number; body: unknown } | undefined;

/** Replaces fetch with canned answers that may depend on the query string; unknown calls answer 404. */
export function mockTradingFetch(responder: TradingResponder) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input.toString(), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const answer = responder(method, url.pathname.replace(/^\/api/, ''), body, url.searchParams) ?? {
      status: 404,
      body: { message: 'Not found.' },
    };
    return new Response(JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The calls made to one method and path, with their JSON bodies and query strings. */
export function callsTo(fetchMock: ReturnType<typeof mockTradingFetch>, method: string, path: string) {
  return fetchMock.mock.calls
    .map(([input, init]) => ({ url: new URL(String(input), 'http://localhost'), init }))
    .filter(({ url, init }) => (init?.method ?? 'GET').toUpperCase() === method && url.pathname === `/api${path}`)
    .map(({ url, init }) => ({
      query: url.searchParams,
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    }));
}

/** Canned answers of every call the trading screens make. */
export function tradingApi(o: TradingApiOptions = {}): TradingResponder {
  return (method, path, body, query) => {
    const own = o.extra?.(method, path, body, query);
    if (own) return own;
    if (path === '/auth/user') return { body: o.user ?? currentUserFixture() };
    if (path === '/settings/branding') return { body: brandingFixture() };
    if (path === '/dashboard/instruments') return { body: o.instruments ?? instrumentsFixture() };
    if (path === '/dashboard/market-status') return { body: o.marketStatus ?? marketOpen };
    if (path === '/dashboard/get-favorite') return { body: o.favorites ?? [] };
    if (path === '/dashboard/rates') return { body: { rate: o.rate ?? '1', base: 'USD', quote: 'USD' } };
    if (path.startsWith('/dashboard/lot-state/'))
      return { body: o.lotState ?? { lotState: 'amount', lotSelector: [] } };
    if (path === '/market/candles') return { body: [] };
    if (method === 'GET' && path === '/dashboard/pending-orders') return { body: { data: o.pendingOrders ?? [] } };
    if (method === 'GET' && path === '/dashboard/orders/history') {
      const rows = o.history ?? [];
      return { body: { data: rows, meta: { total: rows.length, per_page: 15, page: Number(query.get('page') ?? 1) } } };
    }
    if (method === 'GET' && path === '/dashboard/orders') {
      const rows = query.get('status') === 'open' ? (o.openOrders ?? []) : (o.allOrders ?? o.openOrders ?? []);
      return { body: { data: rows, meta: { total: rows.length, per_page: 15, page: Number(query.get('page') ?? 1) } } };
    }
    return undefined;
  };
}
