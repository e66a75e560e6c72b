import { CATEGORIES, HEARTBEAT_APIS, type ApiStatusResponse, type Category } from '@platform/domain';
import type { DbOrTx } from '../../db/client.ts';
import type { FeedManager } from '../../market/feed-manager.ts';
import type { Market } from '../../market/types.ts';
import { getSetting } from '../settings/service.ts';

const count = (v: string | null | undefined): number => {
  const n = Number.parseInt(v ?? '', 10);
  return Number.isFinite(n) && n > 0 ? n : 0;
};

/**
 * The quota comes from the currencyAPI settings record (value2 remaining, value3 monthly total), which the
 * currency API adapter keeps current, so the figure survives restarts and needs no call to the provider.
 */
export async function getApiStatus(
  db: DbOrTx,
  market: Pick<Market, 'book' | 'instruments'> & { feeds?: Pick<FeedManager, 'heartbeats' | 'sources'> },
): Promise<ApiStatusResponse> {
  const row = await getSetting(db, 'currencyAPI');
  const total = count(row?.value3);
  const remaining = Math.min(count(row?.value2), total);
  const sources = market.feeds?.sources();
  const simulatedCategories = CATEGORIES.filter((c) => !sources || sources[c] === 'simulated');
  const simulated = new Set<Category>(simulatedCategories);
  let lastTick = 0;
  let instruments = 0;
  for (const q of market.book.all()) {
    const category = market.instruments.byNameOf(q.name)?.category;
    if (!category || !simulated.has(category)) continue;
    instruments++;
    if (q.time > lastTick) lastTick = q.time;
  }
  return {
    heartbeats: market.feeds?.heartbeats() ?? [],
    currency: { used: total - remaining, total },
    configured: HEARTBEAT_APIS.filter((api) => sources && Object.values(sources).includes(api)),
    simulated: {
      categories: simulatedCategories,
      instruments,
      lastTickAt: lastTick ? new Date(lastTick).toISOString() : null,
    },
  };
}
