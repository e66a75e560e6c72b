/**
 * Counts failures per key (an IP, an account) in a sliding window; blocked once the limit is reached. In memory,
 * for a sole instance; with several, attempt-counter.ts keeps the same counts in Redis.
 */
export class AttemptLimiter {
  private readonly hits = new Map<string, number[]>();
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  fail(key: string, now = Date.now()): void {
    const list = this.recent(key, now);
    list.push(now);
    this.hits.set(key, list);
    if (this.hits.size > 100_000) this.sweep(now);
  }

  /** Milliseconds until the key is no longer blocked (0 when it is not). */
  retryAfterMs(key: string, now = Date.now()): number {
    const list = this.recent(key, now);
    if (list.length < this.limit) return 0;
    // Unblocked once enough of the oldest failures have left the window.
    return list[list.length - this.limit] + this.windowMs - now;
  }

  /** Takes back the most recent failure of a key (an attempt counted in advance that turned out not to be one). */
  undo(key: string): void {
    const list = this.hits.get(key);
    if (!list?.length) return;
    list.pop();
    if (list.length === 0) this.hits.delete(key);
  }

  reset(key: string): void {
    this.hits.delete(key);
  }

  private recent(key: string, now: number): number[] {
    const list = (this.hits.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (list.length === 0) this.hits.delete(key);
    else this.hits.set(key, list);
    return list;
  }

  private sweep(now: number): void {
    for (const key of this.hits.keys()) this.recent(key, now);
  }
}
