import type { z } from 'zod';
import type { SiteSettingsDto, SiteSettingsRequest } from '@platform/domain';
import type { AppContext } from '../../context.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import type { UploadedFile } from '../../lib/multipart.ts';
import type { StaffActor } from '../../lib/staff-scope.ts';
import { prepareFile, recordFile } from '../files/storage.ts';
import { ROLLOVER_KEY, rolloverTimeOf } from '../rollover/calendar.ts';
import {
  brandingFileUrl,
  getSettings,
  invalidateSettingsCache,
  isOn,
  putSetting,
  riskWarningOn,
} from '../settings/service.ts';

const KEYS = [
  'branding',
  'favicon',
  'authBackground',
  'whatsapp',
  'kyc',
  'recaptcha',
  'pricingPlan',
  'emailVerify',
  'showUserInfoAgent',
  'webhookApiKeyLeads',
  'riskWarning',
];
const on = (v: boolean) => (v ? 'on' : 'off');

/**
 * GET /admin/settings: the Site Settings form's values; the reCAPTCHA secret never leaves the server. The App URL is
 * the one the server uses (APP_URL, or http://localhost:PORT), in mailed links and to accept its own pages' requests,
 * not a stored copy that may name another port.
 */
export async function siteSettings(ctx: Pick<AppContext, 'db' | 'config'>): Promise<SiteSettingsDto> {
  const s = await getSettings(ctx.db, KEYS);
  const rollover = await rolloverTimeOf(ctx.db);
  const b = s.branding;
  const currency = b?.value4 || 'USD';
  return {
    appName: b?.value1 ?? '',
    appUrl: ctx.config.appUrl,
    appCurrency: currency,
    currencies: (b?.value2 || currency)
      .split(',')
      .map((c) => c.trim().toUpperCase())
      .filter(Boolean),
    recaptchaClientKey: s.recaptcha?.value1 ?? '',
    recaptchaSecretSet: Boolean(s.recaptcha?.value2),
    whatsapp: s.whatsapp?.value1 ?? '',
    webhookApiKeyLeads: s.webhookApiKeyLeads?.value1 ?? '',
    demoBalance: b?.value5 ?? '0',
    kycDeposit: isOn(s.kyc, 'value1'),
    kycWithdraw: isOn(s.kyc, 'value2'),
    kycTrade: isOn(s.kyc, 'value3'),
    recaptcha: isOn(s.recaptcha, 'value3'),
    pricingPlan: isOn(s.pricingPlan),
    emailVerify: isOn(s.emailVerify),
    showUserInfoAgent: isOn(s.showUserInfoAgent),
    rolloverTime: rollover.time,
    rolloverTimezone: rollover.timezone,
    riskWarning: riskWarningOn(s.riskWarning),
    riskWarningPercent: s.riskWarning?.value2 ?? '',
    favicon: brandingFileUrl(s.favicon?.file),
    appLogo: brandingFileUrl(b?.file),
    authBackground: brandingFileUrl(s.authBackground?.file),
  };
}

type Files = Partial<Record<'favicon' | 'appLogo' | 'authBackground', UploadedFile>>;

/**
 * POST /admin/settings: every record of the form in one transaction, the uploads with them; the caches are dropped
 * after the commit (here and on the other instances), so the next order, deposit, sign-up or page load uses the new
 * values. Audited with the secret and the leads key shown only as changed or not.
 */
export async function saveSiteSettings(
  ctx: Pick<AppContext, 'db' | 'objectStore' | 'config'>,
  actor: StaffActor,
  input: z.output<typeof SiteSettingsRequest>,
  files: Files,
): Promise<void> {
  const before = await siteSettings(ctx);
  if (!before.currencies.includes(input.appCurrency))
    throw new AppError('VALIDATION', 'Choose one of the platform currencies', {
      appCurrency: 'Choose one of the platform currencies',
    });
  const prepared = async (f: UploadedFile | undefined) => (f ? prepareFile(ctx, f, 'logo') : undefined);
  const uploads = [await prepared(files.favicon), await prepared(files.appLogo), await prepared(files.authBackground)];
  await ctx.db.transaction(async (tx) => {
    const recorded: Array<string | undefined> = [];
    for (const f of uploads) recorded.push(f ? await recordFile(tx, f, actor.id) : undefined);
    const [favicon, logo, background] = recorded;
    const current = await getSettings(tx, ['recaptcha']);
    await putSetting(tx, 'branding', {
      value1: input.appName,
      // The address the server runs at (APP_URL), whatever the form sent: it is read-only there.
      value3: ctx.config.appUrl,
      value4: input.appCurrency,
      value5: input.demoBalance,
      ...(logo ? { file: logo } : {}),
    });
    if (favicon) await putSetting(tx, 'favicon', { file: favicon });
    if (background) await putSetting(tx, 'authBackground', { file: background });
    await putSetting(tx, 'whatsapp', { value1: input.whatsapp ?? '' });
    await putSetting(tx, 'webhookApiKeyLeads', { value1: input.webhookApiKeyLeads ?? '' });
    await putSetting(tx, 'kyc', {
      value1: on(input.kycDeposit),
      value2: on(input.kycWithdraw),
      value3: on(input.kycTrade),
    });
    await putSetting(tx, 'recaptcha', {
      value1: input.recaptchaClientKey ?? '',
      value2: input.recaptchaSecretKey ? input.recaptchaSecretKey : (current.recaptcha?.value2 ?? ''),
      value3: on(input.recaptcha),
    });
    await putSetting(tx, 'pricingPlan', { value1: on(input.pricingPlan) });
    await putSetting(tx, 'emailVerify', { value1: on(input.emailVerify) });
    await putSetting(tx, 'showUserInfoAgent', { value1: on(input.showUserInfoAgent) });
    await putSetting(tx, 'riskWarning', {
      value1: on(input.riskWarning ?? before.riskWarning),
      value2: input.riskWarningPercent ?? before.riskWarningPercent,
    });
    // The rollover time is kept when the form does not name it.
    await putSetting(tx, ROLLOVER_KEY, {
      value1: input.rolloverTime ?? before.rolloverTime,
      value2: input.rolloverTimezone ?? before.rolloverTimezone,
    });
    const { recaptchaSecretSet: _s, webhookApiKeyLeads: leadsBefore, ...shownBefore } = before;
    const after = {
      ...input,
      recaptchaSecretKey: input.recaptchaSecretKey ? 'changed' : 'unchanged',
      webhookApiKeyLeads: input.webhookApiKeyLeads !== leadsBefore ? 'changed' : 'unchanged',
      files: Object.keys(files),
    };
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: null,
      action: 'settings.update',
      subjectType: 'settings',
      before: shownBefore,
      after,
      ip: actor.ip,
    });
  });
  invalidateSettingsCache();
}
