/**
 * Runs tasks one at a time per key, in arrival order, and different keys in parallel. The trading service queues
 * each wallet's opens and closes so the risk engine's view of the wallet (its live P/L, used by the free-margin
 * check) always matches what is committed when the next operation on it starts.
 */
export class KeyedQueue<K> {
  private readonly tails = new Map<K, Promise<unknown>>();

  run<T>(key: K, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    // The last task of a key removes its entry, so idle keys cost nothing.
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with work queued or running (for tests and diagnostics). */
  get size(): number {
    return this.tails.size;
  }
}
