import { z } from 'zod';
import { emailField, optionalString } from './common.ts';
import { leadFields } from './crm.ts';

/**
 * The affiliate's API key (back-office §2 "Affiliate API Key", §3, §7 POST /affiliate/api) and the lead-intake API
 * it opens. These facts feed the route, its OpenAPI entry and the downloadable documentation alike.
 */

/** The header an intake call carries its key in (header names are case-insensitive). */
export const API_KEY_HEADER = 'X-API-Key';
/** Where leads are posted, under /api. */
export const LEAD_INTAKE_PATH = '/affiliate/leads/intake';
/** Intake requests one key may make a minute. */
export const LEAD_INTAKE_PER_MINUTE = 60;
/** Wrong keys one network address may send in 15 minutes before it is refused for a while. */
export const LEAD_INTAKE_WRONG_KEYS = 30;
/** Affiliate keys start with this, so they are recognisable in a config file or a leaked log. */
export const AFFILIATE_KEY_PREFIX = 'ak_';

/** GET /affiliate/api: the key is shown once, when generated; afterwards only its first characters. */
export const AffiliateApiKeyResponse = z.object({
  /** The whole key: only in the answer that generated it (the server keeps its hash, never the key). */
  key: z.string().nullable(),
  /** The key's first characters, to recognise it. */
  prefix: z.string().nullable(),
  created_at: z.string().nullable(),
});
export type AffiliateApiKeyResponse = z.infer<typeof AffiliateApiKeyResponse>;

/** POST /affiliate/api: a new key; the old one stops working at once. */
export const AffiliateApiKeyGenerated = z.object({
  message: z.string(),
  key: z.string(),
  prefix: z.string(),
  created_at: z.string(),
});
export type AffiliateApiKeyGenerated = z.infer<typeof AffiliateApiKeyGenerated>;

/** What each intake field means (shown in the OpenAPI document and the affiliate's documentation). */
export const LEAD_INTAKE_FIELDS = {
  firstName: 'First name. Required unless fullName is given.',
  lastName: 'Last name.',
  fullName: 'The whole name, split at the first space into first and last name when firstName is not given.',
  email:
    'Email address; a lead is recognised by it (the same email sent again by the same affiliate is the same lead).',
  phone: 'Phone number: digits, spaces, brackets and dashes, optionally starting with +.',
  country: 'Country name as listed by GET /api/countries (e.g. "United Kingdom").',
  city: 'City.',
  funnelLink: 'The page the lead came from (http:// or https://).',
  reference: 'Your reference for the lead (shown as the affiliate reference).',
  leadSourceId: 'Your own id for the lead or its source (shown as the lead source id).',
} as const;
type IntakeField = keyof typeof LEAD_INTAKE_FIELDS;
const d = <T extends z.ZodType>(field: IntakeField, schema: T): T => schema.describe(LEAD_INTAKE_FIELDS[field]);

/** POST /affiliate/leads/intake: one lead. Unknown fields are ignored. */
export const LeadIntakeRequest = z
  .object({
    firstName: d('firstName', optionalString(100)),
    lastName: d('lastName', optionalString(100)),
    fullName: d('fullName', optionalString(201)),
    email: d('email', emailField),
    phone: d('phone', leadFields.phone),
    country: d('country', leadFields.country),
    city: d('city', leadFields.city),
    funnelLink: d('funnelLink', leadFields.funnelLink),
    reference: d('reference', leadFields.reference),
    leadSourceId: d('leadSourceId', optionalString(120)),
  })
  .refine((v) => Boolean(v.firstName || v.fullName), { error: 'First name is required', path: ['firstName'] });
export type LeadIntakeRequest = z.input<typeof LeadIntakeRequest>;

/** The first and last name of an intake lead: firstName/lastName as given, else the full name split at its first space. */
export function intakeName(v: { firstName?: string | null; lastName?: string | null; fullName?: string | null }): {
  firstName: string;
  lastName: string | null;
} {
  if (v.firstName) return { firstName: v.firstName, lastName: v.lastName || null };
  const full = (v.fullName ?? '').trim();
  const at = full.search(/\s/);
  if (at < 0) return { firstName: full.slice(0, 100), lastName: v.lastName || null };
  return {
    firstName: full.slice(0, at).slice(0, 100),
    lastName: full.slice(at).trim().slice(0, 100) || v.lastName || null,
  };
}

/** 201 for a new lead, 200 with the same id when the lead was already received. */
export const LeadIntakeResponse = z.object({ message: z.string(), id: z.number(), created: z.boolean() });
export type LeadIntakeResponse = z.infer<typeof LeadIntakeResponse>;
