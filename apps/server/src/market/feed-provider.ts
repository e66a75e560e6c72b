/** A source of prices: the simulated feed or one provider adapter. It writes into the price book. */
export interface FeedProvider {
  /** Name for logs and heartbeats, e.g. 'simulated', 'polygonForex'. */
  readonly id: string;
  start(): Promise<void> | void;
  stop(): Promise<void> | void;
}
