import type { AppContext } from '../context.ts';
import type { Quote } from '../market/price-book.ts';

/** Caches other instances are told to refresh after a change committed on one of them. */
export type CacheMessage = { kind: 'instruments' } | { kind: 'feeds' };

/**
 * Runs the market as one of several instances: the leader runs the feeds and publishes every price it applies;
 * the others apply those prices to their own book, from which their clients' price batches, charts and order fills
 * are served. Leadership moves with the PostgreSQL lock (cluster/leader.ts): the new leader starts the feeds, the old
 * one stops them. A sole instance simply starts the market.
 */
export async function runMarket(ctx: Pick<AppContext, 'market' | 'cluster' | 'db' | 'realtime'>): Promise<void> {
  const { market, cluster } = ctx;
  const { bus, leadership } = cluster;
  if (!bus.enabled) return market.start();
  market.follow();
  market.book.onTicks((changed) => {
    if (leadership.isLeader) bus.publish('prices', changed);
  });
  bus.subscribe('prices', (quotes) => {
    if (!leadership.isLeader) market.book.apply(quotes as Quote[]);
  });
  bus.subscribe('cache', (m) => void refresh(ctx, m as CacheMessage));
  leadership.onChange((lead) => (lead ? market.start() : market.unlead()));
}

/** A change made on another instance: the same refresh that instance did for itself. */
async function refresh(
  ctx: Pick<AppContext, 'market' | 'cluster' | 'db' | 'realtime'>,
  m: CacheMessage,
): Promise<void> {
  // The same channel carries the other caches' messages (cluster/peers.ts), handled at boot.
  if (m.kind !== 'instruments' && m.kind !== 'feeds') return;
  try {
    if (m.kind === 'instruments') {
      await ctx.market.instruments.reload(ctx.db);
      ctx.realtime.broadcast('instrumentsChanged', { at: Date.now() });
    }
    if (ctx.cluster.leadership.isLeader) await ctx.market.feeds?.reload();
  } catch (err) {
    console.error(`refreshing ${m.kind} after a change elsewhere failed`, err);
  }
}
