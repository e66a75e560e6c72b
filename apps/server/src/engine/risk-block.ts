/**
 * The engine's storage: positions of one instrument, side and conversion slot as columns.
 *
 * Layout, chosen for the per-tick cost (measured in bench/risk-engine.ts):
 * - Positions are stored in blocks, one per (instrument, side, conversion slot), each a struct of typed arrays
 *   holding its positions contiguously. The index by instrument is the storage itself: a tick walks the instrument's
 *   few blocks front to back with one close price, one sign and one conversion rate per block, so the loop has no
 *   branch on the side and no per-position rate lookup. Removal moves the block's last entry into the hole (O(1)).
 * - Each position also has a stable id (pid) for the order-id map and the wallet lists; the pid knows where its entry
 *   currently lives and holds the cold fields (levels as set, closing state).
 * - Each wallet keeps a hot record of two doubles, its P/L sum and its stop-out limit: the P/L sum at or below which
 *   it must stop out, precomputed from balance, used margin and stop-out percent (RiskEngine.refreshLimit). The tick
 *   compares each touched wallet's new sum with its limit right after updating it, so only wallets actually in
 *   danger get a second look. The record is small because updating it is a random access per position, and that
 *   access dominates the loop; used margin and balance live beside it and change only on add, remove and balance.
 * - Take-profit and stop-loss live in the block as a band on the close price (close ≤ lo or close ≥ hi means a level
 *   is reached; a position already closing gets an empty band). Each block also keeps the highest lo and lowest hi
 *   over its entries: while the close price is strictly inside them no level can be reached and the loop does not
 *   read the band at all. Adding a position or setting its levels tightens these bounds; removals and closings
 *   leave them loose (still safe), and every loop that does read the band makes them exact again.
 */

// Closing state of a position: open, closing for its take-profit or stop-loss, closing as a stop-out.
export const OPEN = 0;
export const CLOSING = 1;
export const CLOSING_STOPOUT = 2;

type Column = Float64Array | Int32Array | Uint8Array;

/** A copy of `a` with room for `cap` entries; new entries take `fill` (typed arrays start at 0 otherwise). */
export function grow<T extends Column>(a: T, cap: number, fill?: number): T {
  const b = new (a.constructor as new (length: number) => T)(cap);
  b.set(a);
  if (fill !== undefined) b.fill(fill, a.length);
  return b;
}

/** The positions of one instrument, side and conversion slot, contiguous in entries 0..count-1. */
export class Block {
  count = 0;
  pid: Int32Array;
  wallet: Int32Array;
  open: Float64Array;
  /**
   * The close price at which the position breaks even, open rate + sign × spread ÷ amount, so the P/L is
   * sign × (close − breakEven) × amount ÷ conversion: the spec formula with one column less to read per tick.
   */
  breakEven: Float64Array;
  amount: Float64Array;
  margin: Float64Array;
  pl: Float64Array;
  /** Take-profit / stop-loss as a band on the close price: a level is reached when close ≤ lo or close ≥ hi. */
  lo: Float64Array;
  hi: Float64Array;
  /** Highest lo and lowest hi over the entries (loose after removals; exact after a loop that reads the band). */
  maxLo = -Infinity;
  minHi = Infinity;

  constructor(
    /** Index in the engine's list of all blocks. */
    readonly id: number,
    readonly instrument: number,
    readonly sign: 1 | -1,
    readonly conv: number,
    cap = 16,
  ) {
    this.pid = new Int32Array(cap);
    this.wallet = new Int32Array(cap);
    this.open = new Float64Array(cap);
    this.breakEven = new Float64Array(cap);
    this.amount = new Float64Array(cap);
    this.margin = new Float64Array(cap);
    this.pl = new Float64Array(cap);
    this.lo = new Float64Array(cap);
    this.hi = new Float64Array(cap);
  }

  /** Appends an empty entry and returns its index. */
  push(): number {
    if (this.count === this.pid.length) {
      const cap = this.count * 2;
      this.pid = grow(this.pid, cap);
      this.wallet = grow(this.wallet, cap);
      this.open = grow(this.open, cap);
      this.breakEven = grow(this.breakEven, cap);
      this.amount = grow(this.amount, cap);
      this.margin = grow(this.margin, cap);
      this.pl = grow(this.pl, cap);
      this.lo = grow(this.lo, cap);
      this.hi = grow(this.hi, cap);
    }
    return this.count++;
  }

  /** Removes entry i by moving the last entry into it; returns the pid that moved into i, or -1. */
  remove(i: number): number {
    const last = --this.count;
    if (i === last) return -1;
    this.pid[i] = this.pid[last];
    this.wallet[i] = this.wallet[last];
    this.open[i] = this.open[last];
    this.breakEven[i] = this.breakEven[last];
    this.amount[i] = this.amount[last];
    this.margin[i] = this.margin[last];
    this.pl[i] = this.pl[last];
    this.lo[i] = this.lo[last];
    this.hi[i] = this.hi[last];
    return this.pid[i];
  }

  /** Sets entry i's band and tightens the block bounds with it. */
  setBand(i: number, lo: number, hi: number): void {
    this.lo[i] = lo;
    this.hi[i] = hi;
    if (lo > this.maxLo) this.maxLo = lo;
    if (hi < this.minHi) this.minHi = hi;
  }
}
