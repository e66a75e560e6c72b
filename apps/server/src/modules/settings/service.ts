import { eq, inArray } from 'drizzle-orm';
import type { BrandingResponse } from '@platform/domain';
import type { DbOrTx } from '../../db/client.ts';
import { languages, settings } from '../../db/schema.ts';
import { tellPeers } from '../../cluster/peers.ts';

export type SettingRow = typeof settings.$inferSelect;

export async function getSetting(db: DbOrTx, key: string): Promise<SettingRow | null> {
  const [row] = await db.select().from(settings).where(eq(settings.key, key)).limit(1);
  return row ?? null;
}

export async function getSettings(db: DbOrTx, keys: string[]): Promise<Record<string, SettingRow | undefined>> {
  const rows = await db.select().from(settings).where(inArray(settings.key, keys));
  return Object.fromEntries(rows.map((r) => [r.key, r]));
}

/**
 * Settings read on hot paths (every order) come from a short-lived cache: any write through putSetting clears it at
 * once in this process and, through the cluster bus, on the other instances (within the TTL should a message be lost).
 */
const CACHE_TTL_MS = 2000;
let settingsVersion = 0;
const settingsCache = new WeakMap<
  object,
  { at: number; version: number; keys: string; rows: Record<string, SettingRow | undefined> }
>();

export async function getSettingsCached(db: DbOrTx, keys: string[]): Promise<Record<string, SettingRow | undefined>> {
  const id = keys.join(',');
  const hit = settingsCache.get(db);
  if (hit && hit.keys === id && hit.version === settingsVersion && Date.now() - hit.at < CACHE_TTL_MS) return hit.rows;
  const rows = await getSettings(db, keys);
  settingsCache.set(db, { at: Date.now(), version: settingsVersion, keys: id, rows });
  return rows;
}

/**
 * Forgets the cached settings at once. putSetting already does; call this again once a transaction that wrote
 * settings has committed, so a read made while it was still open cannot keep the old values for the TTL.
 */
export function invalidateSettingsCache(): void {
  invalidateSettingsHere();
  tellPeers({ kind: 'settings' });
}

/** The same for this instance only (a peer's message). */
export function invalidateSettingsHere(): void {
  settingsVersion++;
}

/** Inserts or replaces the given values of one settings record. */
export async function putSetting(
  db: DbOrTx,
  key: string,
  values: Partial<Omit<SettingRow, 'key' | 'updatedAt'>>,
): Promise<void> {
  settingsVersion++;
  await db
    .insert(settings)
    .values({ key, ...values })
    .onConflictDoUpdate({ target: settings.key, set: { ...values, updatedAt: new Date() } });
  tellPeers({ kind: 'settings' });
}

export const isOn = (row: SettingRow | undefined | null, field: 'value1' | 'value2' | 'value3' = 'value1'): boolean =>
  row?.[field] === 'on';

const onOff = (v: boolean): 'on' | 'off' => (v ? 'on' : 'off');

/** Uploaded branding images are served by the files route; the built-in defaults (`/logo.svg`) by the web app. */
export const brandingFileUrl = (v: string | null | undefined): string | null =>
  !v ? null : v.startsWith('/') ? v : `/api/files/${v}`;

/** The public branding and switches the web app needs before sign-in (no secrets). */
/** The retail risk warning is on unless an admin turned it off (no record: on, as a careful broker ships it). */
export const riskWarningOn = (row: SettingRow | undefined): boolean => row?.value1 !== 'off';

export async function getBranding(db: DbOrTx): Promise<BrandingResponse> {
  const s = await getSettings(db, [
    'branding',
    'favicon',
    'authBackground',
    'whatsapp',
    'pricingPlan',
    'showUserInfoAgent',
    'emailVerify',
    'recaptcha',
    'riskWarning',
  ]);
  const langs = await db
    .select({ name: languages.name, code: languages.code })
    .from(languages)
    .orderBy(languages.position, languages.id);
  const b = s.branding;
  const currency = b?.value4 || 'USD';
  const currencies = (b?.value2 || currency)
    .split(',')
    .map((c) => c.trim().toUpperCase())
    .filter(Boolean);
  return {
    appName: b?.value1 || 'Trading Platform',
    appLogo: brandingFileUrl(b?.file),
    favicon: brandingFileUrl(s.favicon?.file),
    authBackground: brandingFileUrl(s.authBackground?.file),
    appUrl: b?.value3 ?? null,
    appCurrency: currency,
    appCurrencies: currencies.includes(currency) ? currencies : [currency, ...currencies],
    appLangs: langs,
    riskWarning: riskWarningOn(s.riskWarning) ? { losingPercent: s.riskWarning?.value2 || null } : null,
    whatsapp: s.whatsapp?.value1 || null,
    pricingPlan: onOff(isOn(s.pricingPlan)),
    showUserInfoAgent: onOff(isOn(s.showUserInfoAgent)),
    emailVerify: onOff(isOn(s.emailVerify)),
    recaptcha: { status: onOff(isOn(s.recaptcha, 'value3')), siteKey: s.recaptcha?.value1 || null },
    demoBalance: b?.value5 || '0',
  };
}
