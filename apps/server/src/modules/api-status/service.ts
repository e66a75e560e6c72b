import { z } from 'zod';
import { Heartbeat } from '@platform/domain';
import type { DbOrTx } from '../../db/client.ts';
import type { FeedManager } from '../../market/feed-manager.ts';
import { getSetting } from '../settings/service.ts';

/** GET /admin/api-status: the API Status screen's rows before live heartbeats arrive, and the currency quota. */
export const ApiStatusResponse = z.object({
  heartbeats: z.array(Heartbeat),
  currency: z.object({ used: z.number().int(), total: z.number().int() }),
});
export type ApiStatusResponse = z.infer<typeof ApiStatusResponse>;

const count = (v: string | null | undefined): number => {
  const n = Number.parseInt(v ?? '', 10);
  return Number.isFinite(n) && n > 0 ? n : 0;
};

/**
 * The quota comes from the currencyAPI settings record (value2 remaining, value3 monthly total), which the
 * currency API adapter keeps current, so the figure survives restarts and needs no call to the provider.
 */
export async function getApiStatus(db: DbOrTx, feeds: Pick<FeedManager, 'heartbeats'> | undefined): Promise<ApiStatusResponse> {
  const row = await getSetting(db, 'currencyAPI');
  const total = count(row?.value3);
  const remaining = Math.min(count(row?.value2), total);
  return { heartbeats: feeds?.heartbeats() ?? [], currency: { used: total - remaining, total } };
}
