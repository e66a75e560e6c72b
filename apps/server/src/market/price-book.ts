/**
 * The server's current prices: one quote per instrument name, fed by the providers (simulated feed, Polygon,
 * EOD, Oanda). Prices are JSON numbers parsed from the provider's decimal text and rounded to the instrument's
 * digits; order fills turn them back into exact decimal strings with toFixed(digits).
 */
export interface Quote {
  name: string;
  bid: number;
  ask: number;
  closeoutBid: number;
  closeoutAsk: number;
  /** Milliseconds since the epoch when the provider priced it. */
  time: number;
}

export type TickListener = (changed: readonly Quote[]) => void;

export class PriceBook {
  private readonly quotes = new Map<string, Quote>();
  private readonly listeners = new Set<TickListener>();

  get(name: string): Quote | undefined {
    return this.quotes.get(name);
  }

  /** How many instruments have a price (it only grows: a quote is replaced, never removed). */
  get size(): number {
    return this.quotes.size;
  }

  all(): Quote[] {
    return [...this.quotes.values()];
  }

  /** Sets quotes without telling listeners (start-up from the last stored prices). */
  prime(quotes: readonly Quote[]): void {
    for (const q of quotes) this.quotes.set(q.name, q);
  }

  /**
   * Applies one burst of quotes from a provider. Quotes whose bid and ask did not change are dropped; listeners
   * (risk engine, candle aggregator, realtime batcher) run synchronously with the changed ones.
   */
  apply(updates: readonly Quote[]): void {
    const changed: Quote[] = [];
    for (const q of updates) {
      if (!(q.bid > 0) || !(q.ask > 0) || q.ask < q.bid) continue;
      const prev = this.quotes.get(q.name);
      if (prev && prev.bid === q.bid && prev.ask === q.ask) continue;
      this.quotes.set(q.name, q);
      changed.push(q);
    }
    if (changed.length === 0) return;
    for (const l of this.listeners) l(changed);
  }

  onTicks(listener: TickListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
