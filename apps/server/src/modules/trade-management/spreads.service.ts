import type { z } from 'zod';
import { SPREAD_KEYS, type SpreadsRequest, type SpreadsResponse } from '@platform/domain';
import type { DbOrTx } from '../../db/client.ts';
import { writeAudit } from '../../lib/audit.ts';
import { getSettings, invalidateSettingsCache, putSetting } from '../settings/service.ts';
import type { Actor, TradeCtx } from './market-sync.ts';

type SpreadsInput = z.output<typeof SpreadsRequest>;

/** A spread record without a usable value counts as 1, as trading reads it (spreadSettingOf). */
const DEFAULT_SPREAD = '1';

async function readSpreads(db: DbOrTx): Promise<SpreadsResponse> {
  const rows = await getSettings(db, [...SPREAD_KEYS]);
  const out = {} as SpreadsResponse;
  for (const key of SPREAD_KEYS) {
    const v = rows[key]?.value1?.trim();
    out[key] = v && /^\d+(\.\d+)?$/.test(v) ? v : DEFAULT_SPREAD;
  }
  return out;
}

/** GET /admin/spreads: value1 of the five spread_ records, the Spread Settings form's initial values. */
export const getSpreads = (db: DbOrTx): Promise<SpreadsResponse> => readSpreads(db);

/**
 * POST /admin/spreads: all five in one transaction with the audit row. Orders read spreads through the settings
 * cache, which is cleared once the change has committed, so the next order is charged the new spread.
 */
export async function updateSpreads(ctx: TradeCtx, actor: Actor, input: SpreadsInput): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const before = await readSpreads(tx);
    for (const key of SPREAD_KEYS) await putSetting(tx, key, { value1: input[key] });
    const after = Object.fromEntries(SPREAD_KEYS.map((k) => [k, input[k]]));
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: null,
      action: 'settings.spreads_update',
      before,
      after,
      ip: actor.ip,
    });
  });
  invalidateSettingsCache();
}
