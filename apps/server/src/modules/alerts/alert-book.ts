/** One active alert as the watcher holds it: enough to decide on a tick, nothing else. */
export interface AlertEntry {
  id: number;
  instrumentId: number;
  side: 'bid' | 'ask';
  condition: 'above' | 'below';
  /** The alert's level as a JS number, parsed from the same decimal text the feed's prices are rounded to. */
  price: number;
}

/**
 * One instrument's alerts of one side and direction, sorted by key ascending (ties by id). The key is the price for
 * `below` and minus the price for `above`, so in both cases the alerts a tick crosses are a suffix of the array:
 * a tick looks at the last entry, pops while crossed, and stops at the first that is not — O(1) when nothing fires,
 * O(fired) otherwise. Adding or removing one alert is a binary search plus a splice.
 */
class Bucket {
  readonly keys: number[] = [];
  readonly entries: AlertEntry[] = [];

  /** First index whose (key, id) is not below the given one. */
  private lowerBound(key: number, id: number): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const k = this.keys[mid];
      if (k < key || (k === key && this.entries[mid].id < id)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(key: number, e: AlertEntry): void {
    const at = this.lowerBound(key, e.id);
    this.keys.splice(at, 0, key);
    this.entries.splice(at, 0, e);
  }

  remove(key: number, id: number): boolean {
    const at = this.lowerBound(key, id);
    if (at >= this.entries.length || this.entries[at].id !== id) return false;
    this.keys.splice(at, 1);
    this.entries.splice(at, 1);
    return true;
  }

  /** Pops every entry whose key is at or past `threshold` into `out`. */
  popFrom(threshold: number, out: AlertEntry[]): void {
    const { keys, entries } = this;
    while (keys.length > 0 && keys[keys.length - 1] >= threshold) {
      keys.pop();
      out.push(entries.pop()!);
    }
  }

  get size(): number {
    return this.keys.length;
  }
}

/** A bucket from one slot's alerts, sorted by key (minus the price for `above`, the price for `below`) then id. */
function sortedBucket(items: AlertEntry[]): Bucket {
  items.sort((x, y) => keyOf(x) - keyOf(y) || x.id - y.id);
  const b = new Bucket();
  for (const e of items) {
    b.keys.push(keyOf(e));
    b.entries.push(e);
  }
  return b;
}

/** Alerts grouped by in `pause`-separated steps of this many. */
const STEP = 50_000;

const slotOf = (e: Pick<AlertEntry, 'side' | 'condition'>): number =>
  (e.side === 'bid' ? 0 : 2) + (e.condition === 'above' ? 0 : 1);
const keyOf = (e: Pick<AlertEntry, 'condition' | 'price'>): number => (e.condition === 'above' ? -e.price : e.price);

/**
 * Every active alert in memory, per instrument in four buckets (bid above, bid below, ask above, ask below), so a
 * tick costs a look at the end of four arrays plus the alerts it fires, never a scan of the instrument's alerts.
 */
export class AlertBook {
  private readonly byInstrument = new Map<number, Bucket[]>();
  private readonly byId = new Map<number, AlertEntry>();

  get size(): number {
    return this.byId.size;
  }

  get(id: number): AlertEntry | undefined {
    return this.byId.get(id);
  }

  /** Adds the alert, replacing the one held under its id (an edit may change instrument, side, direction and price). */
  upsert(e: AlertEntry): void {
    this.remove(e.id);
    let buckets = this.byInstrument.get(e.instrumentId);
    if (!buckets) {
      buckets = [new Bucket(), new Bucket(), new Bucket(), new Bucket()];
      this.byInstrument.set(e.instrumentId, buckets);
    }
    buckets[slotOf(e)].insert(keyOf(e), e);
    this.byId.set(e.id, e);
  }

  remove(id: number): AlertEntry | undefined {
    const e = this.byId.get(id);
    if (!e) return undefined;
    this.byId.delete(id);
    const buckets = this.byInstrument.get(e.instrumentId);
    if (buckets) {
      buckets[slotOf(e)].remove(keyOf(e), id);
      if (buckets.every((b) => b.size === 0)) this.byInstrument.delete(e.instrumentId);
    }
    return e;
  }

  /**
   * Takes out and returns the instrument's alerts this quote crosses (above: level ≤ price; below: level ≥ price, on
   * the alert's side). They leave the book at once, so the next tick does not report them again while they fire.
   */
  takeCrossed(instrumentId: number, bid: number, ask: number): AlertEntry[] {
    const buckets = this.byInstrument.get(instrumentId);
    if (!buckets) return [];
    const out: AlertEntry[] = [];
    buckets[0].popFrom(-bid, out);
    buckets[1].popFrom(bid, out);
    buckets[2].popFrom(-ask, out);
    buckets[3].popFrom(ask, out);
    if (out.length === 0) return out;
    for (const e of out) this.byId.delete(e.id);
    if (buckets.every((b) => b.size === 0)) this.byInstrument.delete(instrumentId);
    return out;
  }

  /** The instruments that hold alerts (a sweep after a takeover looks at each once). */
  instruments(): number[] {
    return [...this.byInstrument.keys()];
  }

  /** Replaces the whole book (start, takeover): one sort per bucket instead of an insert per alert. */
  load(entries: readonly AlertEntry[]): void {
    const lists = new Map<number, AlertEntry[][]>();
    this.byInstrument.clear();
    this.byId.clear();
    this.group(entries, 0, entries.length, lists);
    for (const [instrumentId, l] of lists) this.byInstrument.set(instrumentId, l.map(sortedBucket));
  }

  /**
   * The same in steps (50,000 alerts grouped, or one bucket sorted, at a time) with `pause()` between them, so a
   * million alerts never hold the event loop (ticks, requests) for long. The book is incomplete until it resolves:
   * callers fill a new book and swap.
   */
  async loadInSteps(entries: readonly AlertEntry[], pause: () => Promise<void>): Promise<void> {
    const lists = new Map<number, AlertEntry[][]>();
    this.byInstrument.clear();
    this.byId.clear();
    for (let from = 0; from < entries.length; from += STEP) {
      this.group(entries, from, Math.min(from + STEP, entries.length), lists);
      await pause();
    }
    for (const [instrumentId, l] of lists) {
      const buckets: Bucket[] = [];
      for (const items of l) {
        buckets.push(sortedBucket(items));
        await pause();
      }
      this.byInstrument.set(instrumentId, buckets);
    }
  }

  private group(entries: readonly AlertEntry[], from: number, to: number, lists: Map<number, AlertEntry[][]>): void {
    for (let i = from; i < to; i++) {
      const e = entries[i];
      if (this.byId.has(e.id)) continue;
      this.byId.set(e.id, e);
      let l = lists.get(e.instrumentId);
      if (!l) lists.set(e.instrumentId, (l = [[], [], [], []]));
      l[slotOf(e)].push(e);
    }
  }

  clear(): void {
    this.byInstrument.clear();
    this.byId.clear();
  }
}
