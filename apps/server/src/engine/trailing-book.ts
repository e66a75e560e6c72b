import { Decimal, type Side } from '@platform/domain';

/** The smallest step of a price (they have at most 8 decimals): "strictly better" is "better by at least this". */
const TICK = new Decimal('0.00000001');

/**
 * The price at which a trailing stop moves, from its exact figures: a buy's stop-loss moves to bid − distance once
 * that is above zero and beats the current stop-loss by the step (and by something at all), that is once the bid
 * reaches stop-loss + distance + max(step, 1e-8); a sell's moves to ask + distance once the ask falls to
 * stop-loss − distance − max(step, 1e-8). Without a stop-loss a buy moves as soon as bid − distance is above zero, a
 * sell at once (+∞). Computed in decimal and turned into a double once: prices reach the engine as doubles of
 * decimals with at most 8 places, so comparing them with it gives the decimal answer (see risk-engine.ts).
 */
export function trailingTrigger(side: Side, stopLoss: string | null, distance: string, step: string): number {
  const gap = Decimal.max(new Decimal(step), TICK);
  if (side === 'buy') {
    const base = stopLoss === null ? new Decimal(distance).plus(TICK) : new Decimal(stopLoss).plus(distance).plus(gap);
    return Number(base.toString());
  }
  if (stopLoss === null) return Number.POSITIVE_INFINITY;
  return Number(new Decimal(stopLoss).minus(distance).minus(gap).toString());
}

/** A binary min-heap of ids by key that can also drop or re-key any id (its position is kept per id). */
class IndexedHeap {
  private keys: number[] = [];
  private ids: number[] = [];
  private readonly at = new Map<number, number>();

  get size(): number {
    return this.ids.length;
  }

  set(id: number, key: number): void {
    const i = this.at.get(id);
    if (i === undefined) {
      this.keys.push(key);
      this.ids.push(id);
      this.at.set(id, this.ids.length - 1);
      this.up(this.ids.length - 1);
      return;
    }
    const old = this.keys[i];
    this.keys[i] = key;
    if (key < old) this.up(i);
    else this.down(i);
  }

  remove(id: number): boolean {
    const i = this.at.get(id);
    if (i === undefined) return false;
    this.at.delete(id);
    const lastKey = this.keys.pop() as number;
    const lastId = this.ids.pop() as number;
    if (i < this.ids.length) {
      this.keys[i] = lastKey;
      this.ids[i] = lastId;
      this.at.set(lastId, i);
      this.up(i);
      this.down(this.at.get(lastId) as number);
    }
    return true;
  }

  /** Removes every id whose key is at or below `limit` into `out`, lowest first. */
  popUpTo(limit: number, out: number[]): void {
    while (this.ids.length > 0 && this.keys[0] <= limit) {
      const id = this.ids[0];
      out.push(id);
      this.remove(id);
    }
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.keys[parent] <= this.keys[i]) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    const n = this.ids.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.keys[l] < this.keys[m]) m = l;
      if (r < n && this.keys[r] < this.keys[m]) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }

  private swap(a: number, b: number): void {
    const { keys, ids } = this;
    [keys[a], keys[b]] = [keys[b], keys[a]];
    [ids[a], ids[b]] = [ids[b], ids[a]];
    this.at.set(ids[a], a);
    this.at.set(ids[b], b);
  }
}

/**
 * The trailing stops of open positions, per instrument and side, each in a heap keyed by the price that moves it
 * (trailingTrigger): buys by trigger, reached when the bid is at or above it; sells by minus their trigger, reached
 * when the ask is at or below it. A tick pops what it reaches and stops at the first it does not, so it costs the
 * stops it moves (and a logarithm each), however many positions trail. A popped stop is out of the book until the
 * risk service puts it back with its new trigger (after its move is stored, or as it stands when the move failed).
 */
export class TrailingBook {
  private buys: IndexedHeap[] = [];
  private sells: IndexedHeap[] = [];
  private readonly heapOf = new Map<number, IndexedHeap>();

  get size(): number {
    return this.heapOf.size;
  }

  has(orderId: number): boolean {
    return this.heapOf.has(orderId);
  }

  /** Puts (or moves) a position's trailing stop: it waits for the close price to reach `trigger`. */
  set(orderId: number, instrument: number, sign: 1 | -1, trigger: number): void {
    while (this.buys.length <= instrument) {
      this.buys.push(new IndexedHeap());
      this.sells.push(new IndexedHeap());
    }
    const heap = sign > 0 ? this.buys[instrument] : this.sells[instrument];
    const before = this.heapOf.get(orderId);
    if (before && before !== heap) before.remove(orderId);
    heap.set(orderId, sign > 0 ? trigger : -trigger);
    this.heapOf.set(orderId, heap);
  }

  remove(orderId: number): boolean {
    const heap = this.heapOf.get(orderId);
    if (!heap) return false;
    this.heapOf.delete(orderId);
    return heap.remove(orderId);
  }

  /** Pops the stops a quote moves on an instrument into `out` (order ids). */
  reached(instrument: number, bid: number, ask: number, out: number[]): void {
    if (instrument >= this.buys.length) return;
    const from = out.length;
    if (bid === bid) this.buys[instrument].popUpTo(bid, out);
    if (ask === ask) this.sells[instrument].popUpTo(-ask, out);
    for (let k = from; k < out.length; k++) this.heapOf.delete(out[k]);
  }
}
