import type { z } from 'zod';
import { CATEGORIES, type SwapSettingsRequest, type SwapSettingsResponse } from '@platform/domain';
import type { DbOrTx } from '../../db/client.ts';
import { writeAudit } from '../../lib/audit.ts';
import { invalidateSettingsCache, putSetting } from '../settings/service.ts';
import { swapCalendarOf } from '../rollover/calendar.ts';
import type { Actor, TradeCtx } from './market-sync.ts';

type SwapsInput = z.output<typeof SwapSettingsRequest>;

/** GET /admin/swaps: each category's triple-swap weekday and whether weekends are charged, as the rollover reads them. */
export const getSwapSettings = (db: DbOrTx): Promise<SwapSettingsResponse> => swapCalendarOf(db);

/** POST /admin/swaps: the categories named change (the others keep theirs), with the audit row. */
export async function updateSwapSettings(
  ctx: TradeCtx,
  actor: Actor,
  input: SwapsInput,
): Promise<SwapSettingsResponse> {
  const after = await ctx.db.transaction(async (tx) => {
    const before = await swapCalendarOf(tx);
    const next: SwapSettingsResponse = {
      tripleSwapDay: { ...before.tripleSwapDay },
      weekends: { ...before.weekends },
    };
    for (const c of CATEGORIES) {
      const day = input.tripleSwapDay?.[c];
      const weekends = input.weekends?.[c];
      if (day !== undefined) next.tripleSwapDay[c] = day;
      if (weekends !== undefined) next.weekends[c] = weekends;
      await putSetting(tx, `swap_${c}`, {
        value1: next.tripleSwapDay[c],
        value2: next.weekends[c] ? 'on' : 'off',
      });
    }
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: null,
      action: 'settings.swaps_update',
      subjectType: 'settings',
      before,
      after: next,
      ip: actor.ip,
    });
    return next;
  });
  invalidateSettingsCache();
  return after;
}
