import { z } from 'zod';
import { PagedQuery, optionalString, paged, parseIsoDate, requiredString } from './common.ts';
import { RolloverTime, RolloverTimezone } from './rollover.ts';

/** An optional YYYY-MM-DD filter date (blank is none). */
const filterDate = z
  .string()
  .trim()
  .optional()
  .transform((s) => (s ? s : undefined))
  .refine((s) => s === undefined || parseIsoDate(s) !== null, { error: 'Enter a real date as YYYY-MM-DD' });

/** GET /admin/audit/api: staff actions, newest first, filtered by who, on whom or what, which action and when. */
export const AuditQuery = PagedQuery.extend({
  /** The acting staff member: part of their email, or their id. */
  actor: optionalString(120),
  /** Who or what was touched: part of a user's email, a user id, or `type:id` / `type` (e.g. `order:42`, `settings`). */
  subject: optionalString(120),
  /** An action (`customer.update`) or its area (`customer`). */
  action: optionalString(60),
  from: filterDate,
  to: filterDate,
}).refine((q) => !q.from || !q.to || q.from <= q.to, { error: 'From must not be after To', path: ['from'] });
export type AuditQuery = z.input<typeof AuditQuery>;

export const AuditEntryDto = z.object({
  id: z.number(),
  created_at: z.string(),
  action: z.string(),
  actor: z.object({ id: z.number(), email: z.string(), full_name: z.string() }).nullable(),
  target: z.object({ id: z.number(), email: z.string(), full_name: z.string() }).nullable(),
  subject_type: z.string().nullable(),
  subject_id: z.number().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  ip: z.string().nullable(),
});
export type AuditEntryDto = z.infer<typeof AuditEntryDto>;
export const AuditListResponse = paged(AuditEntryDto);
export type AuditListResponse = z.infer<typeof AuditListResponse>;
export const AuditActionsResponse = z.object({ data: z.array(z.string()) });

/** GET /admin/status/server (spec §3 server info, plus what an operator looks at first). */
export const ServerInfoDto = z.object({
  cpuModel: z.string(),
  /** Percent of all cores busy since the previous sample (0–100). */
  cpuUsage: z.number(),
  cpuCores: z.number(),
  usedMemPercentage: z.number(),
  totalMemMb: z.number(),
  processMemMb: z.number(),
  uptimeSeconds: z.number(),
  osUptimeSeconds: z.number(),
  loadAverage: z.array(z.number()),
  nodeVersion: z.string(),
  database: z.object({ kind: z.enum(['pglite', 'postgres']), sizeMb: z.number().nullable() }),
  eventLoop: z.object({ p50Ms: z.number(), p99Ms: z.number() }),
  websocketClients: z.number(),
  instances: z.object({ clustered: z.boolean(), leader: z.boolean() }),
});
export type ServerInfoDto = z.infer<typeof ServerInfoDto>;

/** GET /admin/dashboard?from&to (YYYY-MM-DD, both optional: all time). */
export const DashboardQuery = z
  .object({ from: filterDate, to: filterDate })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { error: 'From must not be after To', path: ['from'] });

const moneyTotals = z.object({
  currency: z.string(),
  deposits: z.string(),
  withdraws: z.string(),
  proLoss: z.string(),
});

/**
 * The admin dashboard (back-office spec §2): money on real wallets only (demo money is not the broker's), in the
 * app currency; wallets in other currencies are reported beside it, not converted.
 */
export const DashboardResponse = z.object({
  currency: z.string(),
  totalDeposits: z.string(),
  totalWithdraws: z.string(),
  totalTrades: z.number(),
  totalUsers: z.number(),
  /** The broker's result: minus the clients' realised profit or loss on real wallets. */
  totalProLoss: z.string(),
  otherCurrencies: z.array(moneyTotals),
  last7DaysTransactions: z.object({
    categories: z.array(z.string()),
    series: z.array(z.object({ name: z.string(), data: z.array(z.number()) })),
  }),
  tradeEngagement: z.object({ categories: z.array(z.string()), data: z.array(z.number()) }),
});
export type DashboardResponse = z.infer<typeof DashboardResponse>;

/** Switches of the site settings form, sent by a form as "on"/"off" (or true/false). */
const switchField = z
  .union([z.boolean(), z.string()])
  .optional()
  .transform((v) => v === true || v === 'true' || v === 'on' || v === '1');

const blankIsMissing = (v: unknown) => (v === '' ? undefined : v);

/** POST /admin/settings (multipart; the files travel beside these fields). Spec §5: app name, URL and currency "required". */
export const SiteSettingsRequest = z.object({
  appName: requiredString('required', 60),
  appUrl: requiredString('required', 255).refine((s) => /^https?:\/\/[^\s]+$/i.test(s), {
    error: 'Enter an address starting with http:// or https://',
  }),
  appCurrency: requiredString('required', 10).transform((s) => s.toUpperCase()),
  recaptchaClientKey: optionalString(255),
  /** Write-only: blank keeps the stored secret. */
  recaptchaSecretKey: optionalString(255),
  whatsapp: optionalString(32),
  webhookApiKeyLeads: optionalString(255),
  demoBalance: z
    .string({ error: 'required' })
    .trim()
    .regex(/^\d{1,12}(\.\d{1,2})?$/, { error: 'Enter an amount with at most 2 decimals' }),
  kycDeposit: switchField,
  kycWithdraw: switchField,
  kycTrade: switchField,
  recaptcha: switchField,
  pricingPlan: switchField,
  emailVerify: switchField,
  showUserInfoAgent: switchField,
  /** The daily rollover (swaps) at this local time of rolloverTimezone; omitted: unchanged. */
  rolloverTime: z.preprocess(blankIsMissing, RolloverTime.optional()),
  rolloverTimezone: z.preprocess(blankIsMissing, RolloverTimezone.optional()),
  /** The risk warning on every client page, with the share of losing retail accounts (blank: not stated); omitted: unchanged. */
  riskWarning: switchField.optional(),
  riskWarningPercent: z.preprocess(
    (v) => (v === null ? '' : v),
    z
      .string()
      .trim()
      .regex(/^(100(\.0{1,2})?|\d{1,2}(\.\d{1,2})?)?$/, {
        error: 'Enter a percentage from 0 to 100 with at most 2 decimals',
      })
      .optional(),
  ),
});
export type SiteSettingsRequest = z.input<typeof SiteSettingsRequest>;

/** GET /admin/settings: what the form shows (the reCAPTCHA secret only as set or not). */
export const SiteSettingsDto = z.object({
  appName: z.string(),
  appUrl: z.string(),
  appCurrency: z.string(),
  currencies: z.array(z.string()),
  recaptchaClientKey: z.string(),
  recaptchaSecretSet: z.boolean(),
  whatsapp: z.string(),
  webhookApiKeyLeads: z.string(),
  demoBalance: z.string(),
  kycDeposit: z.boolean(),
  kycWithdraw: z.boolean(),
  kycTrade: z.boolean(),
  recaptcha: z.boolean(),
  pricingPlan: z.boolean(),
  emailVerify: z.boolean(),
  showUserInfoAgent: z.boolean(),
  rolloverTime: z.string(),
  rolloverTimezone: z.string(),
  riskWarning: z.boolean(),
  riskWarningPercent: z.string(),
  favicon: z.string().nullable(),
  appLogo: z.string().nullable(),
  authBackground: z.string().nullable(),
});
export type SiteSettingsDto = z.infer<typeof SiteSettingsDto>;

/** Languages Settings (spec §2): the editable name/code list. */
export const AdminLanguageDto = z.object({ id: z.number(), name: z.string(), code: z.string() });
export type AdminLanguageDto = z.infer<typeof AdminLanguageDto>;
export const LanguagesResponse = z.object({ data: z.array(AdminLanguageDto) });
const languageRow = z.object({
  name: requiredString('Name is required', 60),
  code: requiredString('Code is required', 10)
    .transform((s) => s.toLowerCase())
    .refine((s) => /^[a-z]{2,3}(-[a-z0-9]{2,8})?$/.test(s), { error: 'Use a language code such as en, es or pt-br' }),
});
/** POST /admin/languages: the whole list in order; the spec's notes name the array `lotSelector`, `languages` is accepted too. */
export const LanguagesRequest = z
  .object({ lotSelector: z.array(languageRow).max(50).optional(), languages: z.array(languageRow).max(50).optional() })
  .transform((b) => b.lotSelector ?? b.languages ?? [])
  .refine((list) => list.length > 0, { error: 'At least one language is required' })
  .refine((list) => new Set(list.map((l) => l.code)).size === list.length, { error: 'Each code may appear once' })
  .refine((list) => list.some((l) => l.code === 'en'), { error: 'English (en) cannot be removed' });

export const TranslationCodeParam = z.object({
  code: z
    .string()
    .trim()
    .toLowerCase()
    .max(10)
    .regex(/^[a-z]{2,3}(-[a-z0-9]{2,8})?$/, { error: 'Unknown language' }),
});
/** GET /admin/languages/api/{code}: its texts, or with `missing=1` the keys clients asked for that have none. */
export const TranslationsQuery = PagedQuery.extend({ missing: z.enum(['0', '1']).optional() });
export const TranslationDto = z.object({ id: z.number(), key: z.string(), value: z.string(), missing: z.boolean() });
export type TranslationDto = z.infer<typeof TranslationDto>;
export const TranslationListResponse = paged(TranslationDto);
/** Translation add/edit (spec §5: code, key, value required). */
export const TranslationRequest = z.object({
  code: requiredString('Code is required', 10).transform((s) => s.toLowerCase()),
  key: requiredString('Key is required', 500),
  value: requiredString('Value is required', 2000),
});
export type TranslationRequest = z.input<typeof TranslationRequest>;
