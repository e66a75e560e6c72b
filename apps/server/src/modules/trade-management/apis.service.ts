import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import {
  API_SETTING_KEYS,
  API_SETTING_NAMES,
  type ApiSettingDto,
  type ApiSettingKey,
  type ApiSettingUpdateRequest,
} from '@platform/domain';
import type { DbOrTx } from '../../db/client.ts';
import { settings } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { fieldError } from '../../lib/errors.ts';
import { callEndedToken } from '../crm/call-ended.ts';
import { getSettings, invalidateSettingsCache, putSetting, type SettingRow } from '../settings/service.ts';
import { maskSecret, reloadFeeds, type Actor, type SyncLog, type TradeCtx } from './market-sync.ts';

type UpdateInput = z.output<typeof ApiSettingUpdateRequest>;
type Field = 'value1' | 'value2' | 'value3' | 'value4' | 'value5';

/**
 * The fields staff edit per provider (back-office spec §3). currencyAPI value2/value3 are the quota the currency
 * adapter keeps, so a save never touches them; fields a provider does not use are left as they are.
 */
const EDITABLE: Record<ApiSettingKey, readonly Field[]> = {
  polygonAPI: ['value1'],
  eodAPI: ['value1'],
  oandaAPI: ['value1', 'value2', 'value3'],
  currencyAPI: ['value1'],
  voiso: ['value1', 'value2'],
};

/** Fields holding credentials: the audit trail keeps only their last characters. */
const SECRET: Record<ApiSettingKey, readonly Field[]> = {
  polygonAPI: ['value1'],
  eodAPI: ['value1'],
  oandaAPI: ['value2'],
  currencyAPI: ['value1'],
  voiso: ['value2'],
};

function toDto(key: ApiSettingKey, row: SettingRow | undefined): ApiSettingDto {
  return {
    key,
    value1: row?.value1 ?? null,
    value2: row?.value2 ?? null,
    value3: row?.value3 ?? null,
    value4: row?.value4 ?? null,
    value5: row?.value5 ?? null,
    updated_at: row?.updatedAt.toISOString() ?? null,
  };
}

/**
 * GET /admin/apis: the five provider records in a fixed order (missing records as empty ones). Voiso's value3 is not
 * stored: it is the address its call-ended reports go to (modules/crm/call-ended.ts), once a key is saved.
 */
export async function listApiSettings(db: DbOrTx): Promise<ApiSettingDto[]> {
  const rows = await getSettings(db, [...API_SETTING_KEYS]);
  return API_SETTING_KEYS.map((key) => {
    const dto = toDto(key, rows[key]);
    const apiKey = key === 'voiso' ? dto.value2?.trim() : null;
    return apiKey ? { ...dto, value3: `/api/crm/voiso/call-ended/${callEndedToken(apiKey)}` } : dto;
  });
}

function auditView(
  key: ApiSettingKey,
  row: Partial<Record<Field, string | null>> | undefined,
): Record<string, unknown> {
  const view: Record<string, unknown> = { key };
  for (const f of EDITABLE[key]) view[f] = SECRET[key].includes(f) ? maskSecret(row?.[f]) : (row?.[f] ?? null);
  return view;
}

/**
 * PUT /admin/apis/{key}: saves the provider's fields, writes the audit row in the same transaction and then has the
 * running market reload its feeds, so a new key takes effect at once. Returns the success message.
 */
export async function updateApiSetting(
  ctx: TradeCtx,
  actor: Actor,
  key: ApiSettingKey,
  input: UpdateInput,
  log: SyncLog,
): Promise<string> {
  if (input.key !== key) throw fieldError('key', 'The key does not match the address.');
  const values: Partial<Record<Field, string>> = {};
  for (const f of EDITABLE[key]) values[f] = (input as Partial<Record<Field, string>>)[f] ?? '';
  await ctx.db.transaction(async (tx) => {
    const [before] = await tx.select().from(settings).where(eq(settings.key, key)).for('update');
    await putSetting(tx, key, values);
    const changed = EDITABLE[key].filter((f) => (before?.[f] ?? '') !== values[f]);
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: null,
      action: 'settings.api_update',
      before: before ? auditView(key, before) : null,
      after: { ...auditView(key, values), changed },
      ip: actor.ip,
    });
  });
  invalidateSettingsCache();
  await reloadFeeds(ctx, log);
  return `${API_SETTING_NAMES[key]} updated successfully`;
}
