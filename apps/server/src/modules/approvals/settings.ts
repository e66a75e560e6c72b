import { dec, type ApprovalSettings, type ApprovalSettingsResponse } from '@platform/domain';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { writeAudit } from '../../lib/audit.ts';
import type { StaffActor } from '../../lib/staff-scope.ts';
import { getSettingsCached, invalidateSettingsCache, putSetting } from '../settings/service.ts';

/** The settings record that keeps the thresholds (value1, JSON): off everywhere until an admin sets them. */
const KEY = 'approvals';

export const APPROVALS_OFF: ApprovalSettings = {
  withdrawal: null,
  balanceAdjustment: null,
  deposit: null,
  trade: null,
  planChange: false,
  gatewaySecrets: false,
};

const money = (v: unknown): string | null => (typeof v === 'string' && /^\d{1,13}(\.\d{1,2})?$/.test(v) ? v : null);

export async function approvalSettings(db: DbOrTx): Promise<ApprovalSettings> {
  const row = (await getSettingsCached(db, [KEY]))[KEY];
  if (!row?.value1) return APPROVALS_OFF;
  try {
    const v = JSON.parse(row.value1) as Record<string, unknown>;
    return {
      withdrawal: money(v.withdrawal),
      balanceAdjustment: money(v.balanceAdjustment),
      deposit: money(v.deposit),
      trade: money(v.trade),
      planChange: v.planChange === true,
      gatewaySecrets: v.gatewaySecrets === true,
    };
  } catch {
    return APPROVALS_OFF;
  }
}

/** The site currency (Settings → branding), in which thresholds are set and amounts compared. */
export async function siteCurrency(db: DbOrTx): Promise<string> {
  return (await getSettingsCached(db, ['branding'])).branding?.value4 || 'USD';
}

export async function approvalSettingsResponse(db: DbOrTx): Promise<ApprovalSettingsResponse> {
  return { ...(await approvalSettings(db)), siteCurrency: await siteCurrency(db) };
}

/** PUT /admin/approvals/settings (admins), audited with before and after. */
export async function updateApprovalSettings(
  ctx: Pick<AppContext, 'db'>,
  actor: StaffActor,
  input: ApprovalSettings,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const before = await approvalSettings(tx);
    await putSetting(tx, KEY, { value1: JSON.stringify(input) });
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: null,
      action: 'approvals.settings',
      subjectType: 'settings',
      before: { ...before },
      after: { ...input },
      ip: actor.ip,
    });
  });
  invalidateSettingsCache();
}

/**
 * An amount in a wallet's currency in the site currency, at the market's current conversion (the mid along the
 * shortest chain of priced instruments); null when no rate links the two (the caller then asks for approval).
 */
export function inSiteCurrency(
  ctx: Pick<AppContext, 'market'>,
  amount: string,
  currency: string,
  site: string,
): string | null {
  if (currency === site) return dec(amount).abs().toFixed(8);
  const rate = ctx.market.conversionRate(currency, site); // units of `currency` per one unit of `site`
  if (!rate || !(rate > 0)) return null;
  return dec(amount).abs().div(rate).toDecimalPlaces(8).toFixed(8);
}
