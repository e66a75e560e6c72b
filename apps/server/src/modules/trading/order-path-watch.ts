/**
 * Whether this process's clients are trading: calls of the order path (a client's open or close) under way, and when
 * the last one answered. The rollover's lanes give way while they are (rollover/pacer.ts).
 */
export class OrderPathWatch {
  private lastAnsweredAt = Number.NEGATIVE_INFINITY;
  private inFlight = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Times one call of the order path; failures count too (a refusal was a client trading as well). */
  async time<T>(call: () => Promise<T>): Promise<T> {
    this.inFlight++;
    try {
      return await call();
    } finally {
      this.inFlight--;
      this.answered();
    }
  }

  /** A call answered at `at` (now by default). */
  answered(at = this.now()): void {
    this.lastAnsweredAt = Math.max(this.lastAnsweredAt, at);
  }

  /** Calls under way now. */
  busy(): number {
    return this.inFlight;
  }

  /** Whether a call answered within the last `windowMs`. */
  answeredWithin(windowMs: number): boolean {
    return this.lastAnsweredAt >= this.now() - windowMs;
  }
}
