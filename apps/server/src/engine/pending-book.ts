import type { PendingTrigger } from '@platform/domain';

/**
 * Waiting pending orders in memory, per instrument and trigger, each list kept sorted so the orders the next price
 * reaches first sit at its end: a tick looks at the ends of four lists and pops what it reaches, so it costs the
 * orders it triggers plus a comparison, however many orders wait. Placing is a binary search and an insert; removing
 * (cancel, modify, fill elsewhere) only forgets the order, and the stale entry is dropped when it reaches the end or
 * when stale entries outnumber live ones.
 */
export class PendingBook {
  private readonly lists = new Map<number, Lists>();
  /** Live entry (sequence number) of each order; entries whose sequence is not here are stale. */
  private readonly seqOf = new Map<number, number>();
  private readonly orderOf = new Map<number, number>();
  private nextSeq = 1;
  private stale = 0;

  get size(): number {
    return this.seqOf.size;
  }

  has(orderId: number): boolean {
    return this.seqOf.has(orderId);
  }

  /** Adds (or moves) an order: it waits for the market price of `trigger` to reach `price` on `instrument`. */
  add(orderId: number, instrument: number, trigger: PendingTrigger, price: number): void {
    this.remove(orderId);
    const seq = this.nextSeq++;
    this.seqOf.set(orderId, seq);
    this.orderOf.set(seq, orderId);
    const list = this.listsOf(instrument)[trigger];
    // Sorted so the end triggers first: ascending for "at or below" triggers (the highest price is reached first as the
    // market falls), descending for "at or above".
    const asc = trigger === 'ask_le' || trigger === 'bid_le';
    const { prices, seqs } = list;
    let lo = 0;
    let hi = prices.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (asc ? prices[mid] <= price : prices[mid] >= price) lo = mid + 1;
      else hi = mid;
    }
    // Equal prices keep their arrival order at the end: the earlier order fills first.
    while (lo > 0 && prices[lo - 1] === price) lo--;
    prices.splice(lo, 0, price);
    seqs.splice(lo, 0, seq);
  }

  remove(orderId: number): boolean {
    const seq = this.seqOf.get(orderId);
    if (seq === undefined) return false;
    this.seqOf.delete(orderId);
    this.orderOf.delete(seq);
    if (++this.stale > 1024 && this.stale > this.seqOf.size) this.compact();
    return true;
  }

  /** Pops every order the quote reaches on the instrument into `out` (their ids, earliest trigger first). */
  tick(instrument: number, bid: number, ask: number, out: number[]): void {
    const l = this.lists.get(instrument);
    if (!l) return;
    this.pop(l.ask_le, (p) => ask <= p, out);
    this.pop(l.ask_ge, (p) => ask >= p, out);
    this.pop(l.bid_ge, (p) => bid >= p, out);
    this.pop(l.bid_le, (p) => bid <= p, out);
  }

  /** Every order id waiting on an instrument (diagnostics and tests). */
  idsOn(instrument: number): number[] {
    const l = this.lists.get(instrument);
    if (!l) return [];
    const ids: number[] = [];
    for (const list of [l.ask_le, l.ask_ge, l.bid_ge, l.bid_le])
      for (const seq of list.seqs) {
        const id = this.orderOf.get(seq);
        if (id !== undefined) ids.push(id);
      }
    return ids;
  }

  clear(): void {
    this.lists.clear();
    this.seqOf.clear();
    this.orderOf.clear();
    this.stale = 0;
  }

  private pop(list: List, reached: (price: number) => boolean, out: number[]): void {
    const { prices, seqs } = list;
    while (prices.length > 0) {
      const last = prices.length - 1;
      const seq = seqs[last];
      const id = this.orderOf.get(seq);
      if (id === undefined) {
        prices.pop();
        seqs.pop();
        this.stale--;
        continue;
      }
      if (!reached(prices[last])) return;
      prices.pop();
      seqs.pop();
      this.orderOf.delete(seq);
      this.seqOf.delete(id);
      out.push(id);
    }
  }

  private compact(): void {
    for (const l of this.lists.values())
      for (const list of [l.ask_le, l.ask_ge, l.bid_ge, l.bid_le]) {
        let w = 0;
        for (let r = 0; r < list.seqs.length; r++) {
          if (!this.orderOf.has(list.seqs[r])) continue;
          list.prices[w] = list.prices[r];
          list.seqs[w] = list.seqs[r];
          w++;
        }
        list.prices.length = w;
        list.seqs.length = w;
      }
    this.stale = 0;
  }

  private listsOf(instrument: number): Lists {
    let l = this.lists.get(instrument);
    if (!l) {
      l = { ask_le: newList(), ask_ge: newList(), bid_ge: newList(), bid_le: newList() };
      this.lists.set(instrument, l);
    }
    return l;
  }
}

interface List {
  prices: number[];
  seqs: number[];
}
type Lists = Record<PendingTrigger, List>;
const newList = (): List => ({ prices: [], seqs: [] });
