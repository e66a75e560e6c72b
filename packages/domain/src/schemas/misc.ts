import { z } from 'zod';

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
});
export type BrandingResponse = z.infer<typeof BrandingResponse>;

export const MissingTranslationRequest = z.object({ key: z.string().trim().min(1).max(500) });

export const MailDto = z.object({
  id: z.number(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
  error: z.string().nullable(),
});
export type MailDto = z.infer<typeof MailDto>;
