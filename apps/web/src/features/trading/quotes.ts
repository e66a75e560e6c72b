import { useEffect, useSyncExternalStore } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { InstrumentDto, PriceTick } from '@platform/domain';
import { useRealtimeEvent } from '../../api/realtime.ts';
import { useInstruments } from './api.ts';

/** Direction of the last change of a price: shown green (up) or red (down). */
export type Move = 'up' | 'down' | null;

export interface LiveQuote {
  name: string;
  bid: number;
  ask: number;
  closeoutBid: number;
  closeoutAsk: number;
  /** Epoch time of the tick as the server sent it; 0 for a price that came with the catalogue. */
  time: number;
  bidMove: Move;
  askMove: Move;
}

const moveOf = (before: number, after: number, last: Move): Move =>
  after > before ? 'up' : after < before ? 'down' : last;

/**
 * Current prices by instrument name. Each quote object is replaced when its price changes, so a component
 * that watches one instrument re-renders only for that instrument. Applying the same batch twice changes
 * nothing, so every screen that needs prices may subscribe to `priceUpdate` on its own.
 */
export class QuoteStore {
  private quotes = new Map<string, LiveQuote>();
  private snapshot: ReadonlyMap<string, LiveQuote> = new Map();
  private listeners = new Set<() => void>();

  seed(instruments: readonly InstrumentDto[]): void {
    let changed = false;
    for (const i of instruments) {
      // A tick that already arrived is newer than the catalogue's price.
      if (this.quotes.has(i.name) || i.bids === null || i.asks === null) continue;
      this.quotes.set(i.name, {
        name: i.name,
        bid: i.bids,
        ask: i.asks,
        closeoutBid: i.closeoutBid ?? i.bids,
        closeoutAsk: i.closeoutAsk ?? i.asks,
        time: 0,
        bidMove: null,
        askMove: null,
      });
      changed = true;
    }
    if (changed) this.publish();
  }

  apply(ticks: readonly PriceTick[]): void {
    let changed = false;
    for (const t of ticks) {
      const prev = this.quotes.get(t.name);
      if (prev && (t.time < prev.time || (t.time === prev.time && prev.bid === t.bids && prev.ask === t.asks)))
        continue;
      this.quotes.set(t.name, {
        name: t.name,
        bid: t.bids,
        ask: t.asks,
        closeoutBid: t.closeoutBid,
        closeoutAsk: t.closeoutAsk,
        time: t.time,
        bidMove: prev ? moveOf(prev.bid, t.bids, prev.bidMove) : null,
        askMove: prev ? moveOf(prev.ask, t.asks, prev.askMove) : null,
      });
      changed = true;
    }
    if (changed) this.publish();
  }

  get(name: string): LiveQuote | undefined {
    return this.quotes.get(name);
  }

  all(): ReadonlyMap<string, LiveQuote> {
    return this.snapshot;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private publish(): void {
    this.snapshot = new Map(this.quotes);
    for (const l of this.listeners) l();
  }
}

// One store per query client: the app has one, and each test gets a fresh one with its own client.
const stores = new WeakMap<QueryClient, QuoteStore>();

export function quoteStoreOf(client: QueryClient): QuoteStore {
  let store = stores.get(client);
  if (!store) {
    store = new QuoteStore();
    stores.set(client, store);
  }
  return store;
}

/** Keeps the prices live while mounted: catalogue prices first, then every `priceUpdate` batch. */
export function useLivePrices(): void {
  const store = quoteStoreOf(useQueryClient());
  const { data: instruments } = useInstruments();
  useEffect(() => {
    if (instruments) store.seed(instruments);
  }, [instruments, store]);
  useRealtimeEvent<PriceTick[]>('priceUpdate', (ticks) => store.apply(ticks));
}

/** The live quote of one instrument (undefined until it has a price). */
export function useQuote(name: string | null | undefined): LiveQuote | undefined {
  const store = quoteStoreOf(useQueryClient());
  return useSyncExternalStore(store.subscribe, () => (name ? store.get(name) : undefined));
}

/** Every live quote; changes with each batch. */
export function useQuotes(): ReadonlyMap<string, LiveQuote> {
  const store = quoteStoreOf(useQueryClient());
  return useSyncExternalStore(store.subscribe, () => store.all());
}
