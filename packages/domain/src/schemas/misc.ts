import { z } from 'zod';
import { requiredString } from './common.ts';

export const NotificationDto = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string().nullable(),
  url: z.string().nullable(),
  created_at: z.string(),
  read: z.boolean(),
});
export type NotificationDto = z.infer<typeof NotificationDto>;

export const LanguageDto = z.object({ name: z.string(), code: z.string() });
export type LanguageDto = z.infer<typeof LanguageDto>;

export const BrandingResponse = z.object({
  appName: z.string(),
  appLogo: z.string().nullable(),
  favicon: z.string().nullable(),
  authBackground: z.string().nullable(),
  appUrl: z.string().nullable(),
  appCurrency: z.string(),
  appCurrencies: z.array(z.string()),
  appLangs: z.array(LanguageDto),
  whatsapp: z.string().nullable(),
  pricingPlan: z.enum(['on', 'off']),
  showUserInfoAgent: z.enum(['on', 'off']),
  emailVerify: z.enum(['on', 'off']),
  recaptcha: z.object({ status: z.enum(['on', 'off']), siteKey: z.string().nullable() }),
  demoBalance: z.string(),
  /**
   * The risk warning every client page shows (retail protection), or null when an admin turned it off;
   * `losingPercent` is the share of retail accounts that lose money, as the admin states it (null: not stated).
   */
  riskWarning: z.object({ losingPercent: z.string().nullable() }).nullable(),
});
export type BrandingResponse = z.infer<typeof BrandingResponse>;

export const MissingTranslationRequest = z.object({ key: requiredString('Key is required', 500) });

/**
 * Where a mail's sign-in link (verification, password reset) is: `none` (no link), `emailed` (sent by SMTP only,
 * never stored), `withheld` (kept without SMTP but left out of this answer: the list, or the link no longer works),
 * `shown` (in `text`: the single read of a live link, which is audited).
 */
export const MailLink = z.enum(['none', 'emailed', 'withheld', 'shown']);
export type MailLink = z.infer<typeof MailLink>;

export const MailDto = z.object({
  id: z.number(),
  to: z.string(),
  subject: z.string(),
  /** The mail's text; the link stands in it only when `link` is `shown`, otherwise a note replaces it. */
  text: z.string(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
  error: z.string().nullable(),
  link: MailLink,
  /** The link still works: its token is neither used nor expired. */
  link_live: z.boolean(),
});
export type MailDto = z.infer<typeof MailDto>;

/** GET /admin/mail/delivery: `smtp` when mail is delivered, `offline` when it is only kept in the outbox. */
export const MailDeliveryResponse = z.object({ mode: z.enum(['smtp', 'offline']) });
export type MailDeliveryResponse = z.infer<typeof MailDeliveryResponse>;
