import { z } from 'zod';
import {
  LOT_KEYS,
  LotOption,
  type LotModesRequest,
  type LotSelectorRequest,
  type LotSettingsResponse,
} from '@platform/domain';
import type { DbOrTx } from '../../db/client.ts';
import { CATEGORY_PRESET_KEYS, categoryPresetsKey, presetsInLots } from '../trading/lot-rules.ts';
import { writeAudit } from '../../lib/audit.ts';
import { getSettings, invalidateSettingsCache, putSetting, type SettingRow } from '../settings/service.ts';
import type { Actor, TradeCtx } from './market-sync.ts';

type ModesInput = z.output<typeof LotModesRequest>;
type SelectorInput = z.output<typeof LotSelectorRequest>;
type Modes = LotSettingsResponse['modes'];

/** As trading reads it (lotState): 'lot' only when the record says so, otherwise a typed amount. */
const modesOf = (rows: Record<string, SettingRow | undefined>): Modes =>
  Object.fromEntries(LOT_KEYS.map((k) => [k, rows[k]?.value1 === 'lot' ? 'lot' : 'amount'])) as Modes;

/** The stored presets; a malformed record reads as none (the form then starts empty). */
function presetsOf(row: SettingRow | undefined): LotOption[] {
  try {
    const parsed = z.array(LotOption).safeParse(JSON.parse(row?.value1 ?? '[]'));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/**
 * GET /admin/lots: the per-category modes, the forex lot selector presets (units) and the other categories' presets
 * (lots; the defaults where none are stored), the Lot Settings forms' initial values.
 */
export async function getLotSettings(db: DbOrTx): Promise<LotSettingsResponse> {
  const rows = await getSettings(db, [...LOT_KEYS, 'lotSelector', ...CATEGORY_PRESET_KEYS]);
  const categoryPresets = Object.fromEntries(
    OTHER_CATEGORIES.map((c) => [c, presetsInLots(rows, c)]),
  ) as LotSettingsResponse['categoryPresets'];
  return { modes: modesOf(rows), lotSelector: presetsOf(rows.lotSelector), categoryPresets };
}

const OTHER_CATEGORIES = ['commodity', 'index', 'stock', 'crypto'] as const;

/** POST /admin/lots: every category's mode, with the audit row; the order dialog reads the new mode at once. */
export async function updateLotModes(ctx: TradeCtx, actor: Actor, input: ModesInput): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const before = modesOf(await getSettings(tx, [...LOT_KEYS]));
    for (const key of LOT_KEYS) await putSetting(tx, key, { value1: input[key] });
    const after = Object.fromEntries(LOT_KEYS.map((k) => [k, input[k]]));
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: null,
      action: 'settings.lots_update',
      before,
      after,
      ip: actor.ip,
    });
  });
  invalidateSettingsCache();
}

/**
 * POST /admin/lotSelector: replaces a category's presets, kept in order as a JSON list: without a category (or forex)
 * the spec's lotSelector (sizes in units), else the category's own list (sizes in lots).
 */
export async function updateLotSelector(ctx: TradeCtx, actor: Actor, input: SelectorInput): Promise<void> {
  const presets: LotOption[] = input.lotSelector.map((p) => ({ label: p.label, value: p.value }));
  const key = !input.category || input.category === 'forex' ? 'lotSelector' : categoryPresetsKey(input.category);
  await ctx.db.transaction(async (tx) => {
    const before = presetsOf((await getSettings(tx, [key]))[key]);
    await putSetting(tx, key, { value1: JSON.stringify(presets) });
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: null,
      action: 'settings.lot_selector_update',
      before: { [key]: before },
      after: { [key]: presets },
      ip: actor.ip,
    });
  });
  invalidateSettingsCache();
}
