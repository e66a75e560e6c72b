import type { InstrumentRow } from './instruments.ts';
import type { PriceBook } from './price-book.ts';

/**
 * One hop of a conversion path, from one currency to the next: the mid of an instrument in the book (`rate` false),
 * or a USD rate (units of `name` per one USD, `rate` true). `inverse` divides instead of multiplying.
 */
export interface ConversionStep {
  readonly name: string;
  readonly rate: boolean;
  readonly inverse: boolean;
}

interface Edge {
  readonly to: string;
  readonly step: ConversionStep;
}

export interface ConversionSources {
  book: Pick<PriceBook, 'get' | 'size'>;
  /** The instrument universe; a new array (after a reload) means the graph is rebuilt. */
  instruments: () => readonly InstrumentRow[];
  /** Units of each currency per one USD for currencies no instrument links; a new map means the graph is rebuilt. */
  usdRates: () => ReadonlyMap<string, number>;
}

/** Categories whose instruments link currencies first; any other instrument still links its base to its quote. */
const CATEGORY_ORDER: Record<string, number> = { forex: 0, crypto: 1, commodity: 2, index: 3, stock: 4 };

/**
 * Finds the shortest chain of hops from `from` to `to` (breadth first; edges are tried in the order given, so the
 * earlier kinds of instrument win ties). Null when the two are not linked.
 */
export function findPath(
  adjacency: ReadonlyMap<string, readonly Edge[]>,
  from: string,
  to: string,
): ConversionStep[] | null {
  if (from === to) return [];
  const via = new Map<string, { prev: string; step: ConversionStep }>();
  const seen = new Set([from]);
  let frontier = [from];
  while (frontier.length) {
    const next: string[] = [];
    for (const node of frontier) {
      for (const edge of adjacency.get(node) ?? []) {
        if (seen.has(edge.to)) continue;
        seen.add(edge.to);
        via.set(edge.to, { prev: node, step: edge.step });
        if (edge.to === to) {
          const path: ConversionStep[] = [];
          for (let at = to; at !== from; ) {
            const hop = via.get(at)!;
            path.push(hop.step);
            at = hop.prev;
          }
          return path.reverse();
        }
        next.push(edge.to);
      }
    }
    frontier = next;
  }
  return null;
}

/**
 * Conversion between any two currencies the product prices: the quickest chain of instruments in the book (a
 * direct pair, else a cross rate such as EUR → USD → CNH), and only where instruments do not link the two, the USD
 * rates of the currency API (or the simulated feed's). Paths are found once per currency pair and kept until the
 * instruments, the set of priced instruments or the USD rates change; a conversion then only multiplies the
 * current mids along the path, so the order path and the risk engine's ticks pay a few map lookups.
 */
export class ConversionGraph {
  private instrumentsSeen: readonly InstrumentRow[] | null = null;
  private pricedSeen = -1;
  private ratesSeen: ReadonlyMap<string, number> | null = null;
  private bookOnly = new Map<string, Edge[]>();
  private withRates = new Map<string, Edge[]>();
  /** wallet currency → quote currency → path (null: none). */
  private paths = new Map<string, Map<string, ConversionStep[] | null>>();

  constructor(private readonly src: ConversionSources) {}

  /** Units of `quote` per one unit of `walletCurrency` at the current mids; null when nothing links them. */
  rate(quote: string, walletCurrency: string): number | null {
    if (quote === walletCurrency) return 1;
    const path = this.pathOf(walletCurrency, quote);
    if (!path) return null;
    let r = 1;
    const rates = this.ratesSeen!;
    for (let i = 0; i < path.length; i++) {
      const step = path[i];
      let factor: number | undefined;
      if (step.rate) factor = rates.get(step.name);
      else {
        const q = this.src.book.get(step.name);
        factor = q ? (q.bid + q.ask) / 2 : undefined;
      }
      if (!factor || !(factor > 0)) return null;
      r = step.inverse ? r / factor : r * factor;
    }
    return Number.isFinite(r) && r > 0 ? r : null;
  }

  /** The hops from `from` to `to` as the conversion uses them now (for tests and diagnostics). */
  pathOf(from: string, to: string): readonly ConversionStep[] | null {
    this.refresh();
    let row = this.paths.get(from);
    if (!row) {
      row = new Map();
      this.paths.set(from, row);
    }
    let path = row.get(to);
    if (path === undefined) {
      // Live instrument prices first; the hourly USD rates only bridge what no instrument links.
      path = findPath(this.bookOnly, from, to) ?? findPath(this.withRates, from, to);
      row.set(to, path);
    }
    return path;
  }

  /** True when an instrument is based on or quoted in `code`, or a USD rate is known for it. */
  knows(code: string): boolean {
    this.refresh();
    return this.withRates.has(code) || this.src.instruments().some((i) => i.base === code || i.quote === code);
  }

  private refresh(): void {
    const list = this.src.instruments();
    const priced = this.src.book.size;
    const rates = this.src.usdRates();
    if (list === this.instrumentsSeen && priced === this.pricedSeen && rates === this.ratesSeen) return;
    this.instrumentsSeen = list;
    this.pricedSeen = priced;
    this.ratesSeen = rates;
    this.paths = new Map();
    const bookOnly = new Map<string, Edge[]>();
    const link = (graph: Map<string, Edge[]>, from: string, to: string, step: ConversionStep) => {
      let edges = graph.get(from);
      if (!edges) {
        edges = [];
        graph.set(from, edges);
      }
      edges.push({ to, step });
    };
    const ordered = list
      .filter((i) => i.base && i.quote && i.base !== i.quote && this.src.book.get(i.name))
      .sort((a, b) => (CATEGORY_ORDER[a.category] ?? 9) - (CATEGORY_ORDER[b.category] ?? 9));
    for (const i of ordered) {
      link(bookOnly, i.base, i.quote, { name: i.name, rate: false, inverse: false });
      link(bookOnly, i.quote, i.base, { name: i.name, rate: false, inverse: true });
    }
    const withRates = new Map<string, Edge[]>([...bookOnly].map(([k, v]) => [k, [...v]]));
    for (const [code, value] of rates) {
      if (code === 'USD' || !(value > 0)) continue;
      link(withRates, 'USD', code, { name: code, rate: true, inverse: false });
      link(withRates, code, 'USD', { name: code, rate: true, inverse: true });
    }
    this.bookOnly = bookOnly;
    this.withRates = withRates;
  }
}
