/**
 * The answer times of this process's order path (a client's open or close, from the call to its result), kept for a
 * few seconds, so that background work sharing the database (the rollover's lanes) can see when orders slow down and
 * give way. Bounded: a ring of the latest samples.
 */
const CAPACITY = 4096;

export class OrderPathWatch {
  private readonly at = new Float64Array(CAPACITY);
  private readonly took = new Float64Array(CAPACITY);
  private next = 0;
  private size = 0;
  private inFlight = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Times one call of the order path; failures count too (a refusal also waited for the database). */
  async time<T>(call: () => Promise<T>): Promise<T> {
    const started = this.now();
    this.inFlight++;
    try {
      return await call();
    } finally {
      this.inFlight--;
      this.record(this.now() - started, started);
    }
  }

  record(ms: number, startedAt = this.now() - ms): void {
    this.at[this.next] = startedAt + ms;
    this.took[this.next] = ms;
    this.next = (this.next + 1) % CAPACITY;
    this.size = Math.min(CAPACITY, this.size + 1);
  }

  /** Calls under way now. */
  busy(): number {
    return this.inFlight;
  }

  /** The answer times of the calls that ended in the last `windowMs`, ascending. */
  recent(windowMs: number): number[] {
    const since = this.now() - windowMs;
    const out: number[] = [];
    for (let i = 0; i < this.size; i++) {
      const k = (this.next - 1 - i + CAPACITY) % CAPACITY;
      if (this.at[k] < since) break;
      out.push(this.took[k]);
    }
    return out.sort((a, b) => a - b);
  }
}

/** The q-quantile (0..1) of ascending values, or null when there are none. */
export function quantileOf(sorted: number[], q: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}
