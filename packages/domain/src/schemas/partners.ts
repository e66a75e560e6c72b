import { z } from 'zod';
import { CATEGORIES } from '../trading.ts';
import { emailField, MoneyString, PagedQuery, paged, parseIsoDate, requiredString } from './common.ts';
import { idField, nonNegativeMoney, percentField } from './money-fields.ts';

/**
 * Partners (introducing brokers): commission plans, the partner tree, which partner a client belongs to, and the
 * commissions accrued on clients' deals and first deposits (docs/decisions.md "Partners").
 */

/** The deepest partner tree a plan pays: level 1 (the client's own partner) up to this many levels above. */
export const PARTNER_MAX_LEVELS = 10;
/** The most a plan pays per lot of any category, in its currency. */
export const PARTNER_MAX_PER_LOT = 10_000;
/** The longest minimum holding time a plan may ask (one week). */
export const PARTNER_MAX_HOLD_SECONDS = 7 * 86_400;
/** The longest period a partner report covers. */
export const PARTNER_REPORT_MAX_DAYS = 2 * 366;

const currencyField = z
  .string({ error: 'Currency is required' })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{3,5}$/, { error: 'Use a currency code such as USD' });

/** An amount per lot traded, per instrument category (every category; 0 pays nothing for it). */
export const PerLotRates = z.object(
  Object.fromEntries(
    CATEGORIES.map((c) => [c, nonNegativeMoney(`Amount per lot of ${c} is required`, PARTNER_MAX_PER_LOT, 4)]),
  ) as {
    [K in (typeof CATEGORIES)[number]]: ReturnType<typeof nonNegativeMoney>;
  },
);
export type PerLotRates = z.output<typeof PerLotRates>;

/**
 * POST /admin/partners/plans and PUT /admin/partners/plans/{id}: a plan's terms. A PUT adds a version effective from
 * `effectiveFrom` (now when absent): deals closed before it keep the version they were made under.
 */
export const PartnerPlanRequest = z.object({
  name: requiredString('Name is required', 80),
  currency: currencyField,
  perLot: PerLotRates,
  spreadShare: percentField('Spread share is required'),
  commissionShare: percentField('Commission share is required'),
  cpa: nonNegativeMoney('CPA is required'),
  cpaMinDeposit: nonNegativeMoney('CPA minimum deposit is required'),
  levels: z
    .array(percentField('Each level needs a percent'), { error: 'Levels are required' })
    .min(1, { error: 'At least one level is required' })
    .max(PARTNER_MAX_LEVELS, { error: `At most ${PARTNER_MAX_LEVELS} levels` }),
  countDemo: z.boolean().default(false),
  minHoldSeconds: z.coerce
    .number({ error: 'Minimum holding time is required' })
    .int({ error: 'Whole seconds only' })
    .min(0, { error: 'Must be 0 or more' })
    .max(PARTNER_MAX_HOLD_SECONDS, { error: `At most ${PARTNER_MAX_HOLD_SECONDS} seconds` })
    .default(0),
  effectiveFrom: z.iso
    .datetime({ offset: true, error: 'Use an ISO date and time' })
    .optional()
    .transform((s) => (s ? new Date(s) : undefined)),
});
export type PartnerPlanRequest = z.input<typeof PartnerPlanRequest>;
export type PartnerPlanInput = z.output<typeof PartnerPlanRequest>;

/** A plan as admins read it: its current terms (the latest version in effect) and how many partners use it. */
export const PartnerPlanDto = z.object({
  id: z.number().int(),
  name: z.string(),
  currency: z.string(),
  perLot: z.record(z.string(), MoneyString),
  spreadShare: MoneyString,
  commissionShare: MoneyString,
  cpa: MoneyString,
  cpaMinDeposit: MoneyString,
  levels: z.array(MoneyString),
  countDemo: z.boolean(),
  minHoldSeconds: z.number().int(),
  versionId: z.number().int(),
  effectiveFrom: z.string(),
  versions: z.number().int(),
  partners: z.number().int(),
  archived: z.boolean(),
});
export type PartnerPlanDto = z.infer<typeof PartnerPlanDto>;
export const PartnerPlanListResponse = z.object({ data: z.array(PartnerPlanDto) });
export const PartnerPlanResponse = z.object({ message: z.string(), plan: PartnerPlanDto });

/** PUT /admin/partners/{userId}: the partner's plan and parent (null: a top partner). */
export const PartnerLinkRequest = z.object({
  planId: idField('Choose a plan'),
  parentId: idField('Choose a parent partner').nullable().default(null),
});
export type PartnerLinkRequest = z.input<typeof PartnerLinkRequest>;

/** A partner in the tree as admins see it. */
export const PartnerNodeDto = z.object({
  userId: z.number().int(),
  name: z.string(),
  email: z.string(),
  planId: z.number().int(),
  planName: z.string(),
  parentId: z.number().int().nullable(),
});
export type PartnerNodeDto = z.infer<typeof PartnerNodeDto>;
export const PartnerLinkResponse = z.object({ message: z.string(), partner: PartnerNodeDto });
export const PartnerTreeResponse = z.object({ data: z.array(PartnerNodeDto) });

/** PUT /admin/partners/clients/{customerId}: the client's partner (null: none) and why (audited). */
export const PartnerClientRequest = z.object({
  partnerId: idField('Choose a partner').nullable(),
  reason: requiredString('Reason is required', 500),
});
export type PartnerClientRequest = z.input<typeof PartnerClientRequest>;
export const PartnerClientResponse = z.object({
  message: z.string(),
  customerId: z.number().int(),
  partnerId: z.number().int().nullable(),
});

const dateParam = z
  .string()
  .trim()
  .refine((s) => parseIsoDate(s) !== null && s >= '1970-01-01' && s <= '2100-12-31', {
    error: 'Enter a real date as YYYY-MM-DD',
  })
  .optional();

/** Refuses a period that ends before it starts or runs over PARTNER_REPORT_MAX_DAYS. */
function checkPeriod(q: { dateStart?: string; dateEnd?: string }, ctx: z.RefinementCtx): void {
  if (!q.dateStart || !q.dateEnd) return;
  if (q.dateStart > q.dateEnd) {
    ctx.addIssue({ code: 'custom', path: ['dateEnd'], message: 'The start date must not be after the end date.' });
    return;
  }
  const days = (Date.parse(q.dateEnd) - Date.parse(q.dateStart)) / 86_400_000 + 1;
  if (days > PARTNER_REPORT_MAX_DAYS)
    ctx.addIssue({ code: 'custom', path: ['dateEnd'], message: 'A report covers at most 2 years.' });
}

/** A period of whole UTC days (both optional: the 30 days up to today). */
export const PartnerPeriodQuery = z.object({ dateStart: dateParam, dateEnd: dateParam }).superRefine(checkPeriod);
export type PartnerPeriodQuery = z.output<typeof PartnerPeriodQuery>;

/** GET /admin/partners/report: the period, and format=csv for the file. */
export const PartnerReportQuery = z
  .object({ dateStart: dateParam, dateEnd: dateParam, format: z.enum(['csv'], { error: 'Unknown format' }).optional() })
  .superRefine(checkPeriod);
export type PartnerReportQuery = z.output<typeof PartnerReportQuery>;

/** GET /admin/partners/report: per partner, over the period. */
export const PartnerReportRow = z.object({
  partnerId: z.number().int(),
  name: z.string(),
  email: z.string(),
  parentId: z.number().int().nullable(),
  clients: z.number().int(),
  activeTraders: z.number().int(),
  lots: MoneyString,
  commission: z.array(z.object({ currency: z.string(), amount: MoneyString })),
});
export type PartnerReportRow = z.infer<typeof PartnerReportRow>;
export const PartnerReportResponse = z.object({
  dateStart: z.string(),
  dateEnd: z.string(),
  data: z.array(PartnerReportRow),
});

/** GET /affiliate/partner/summary: the partner's own figures over the period. */
export const PartnerSummaryResponse = z.object({
  dateStart: z.string(),
  dateEnd: z.string(),
  clients: z.number().int(),
  activeTraders: z.number().int(),
  lots: MoneyString,
  commission: z.array(z.object({ currency: z.string(), amount: MoneyString })),
  byDay: z.array(z.object({ day: z.string(), currency: z.string(), amount: MoneyString, lots: MoneyString })),
  plan: z.object({ id: z.number().int(), name: z.string(), currency: z.string() }).nullable(),
  promoCode: z.string().nullable(),
  wallets: z.array(z.object({ id: z.number().int(), currency: z.string(), balance: MoneyString })),
});
export type PartnerSummaryResponse = z.infer<typeof PartnerSummaryResponse>;

/** GET /affiliate/partner/clients: the partner's own clients (contacts masked per the site setting). */
export const PartnerClientsQuery = PagedQuery.pick({ page: true, limit: true });
export const PartnerClientDto = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  country: z.string().nullable(),
  joinedAt: z.string(),
  source: z.enum(['staff', 'promo', 'lead']),
  ftdAt: z.string().nullable(),
  lots: MoneyString,
  masked: z.boolean(),
});
export type PartnerClientDto = z.infer<typeof PartnerClientDto>;
export const PartnerClientsResponse = paged(PartnerClientDto);

/** GET /affiliate/partner/subpartners: partners below the caller, with their level and what they earned the caller. */
export const PartnerSubpartnerDto = z.object({
  userId: z.number().int(),
  name: z.string(),
  parentId: z.number().int(),
  level: z.number().int(),
  clients: z.number().int(),
  lots: MoneyString,
  earnedYou: z.array(z.object({ currency: z.string(), amount: MoneyString })),
});
export type PartnerSubpartnerDto = z.infer<typeof PartnerSubpartnerDto>;
export const PartnerSubpartnersResponse = z.object({ data: z.array(PartnerSubpartnerDto) });

/** GET /affiliate/partner/commissions: the statement, per deal and level; format=csv|xlsx downloads it. */
export const PartnerCommissionsQuery = PagedQuery.pick({ page: true, limit: true })
  .extend({ dateStart: dateParam, dateEnd: dateParam, format: z.enum(['csv', 'xlsx']).optional() })
  .superRefine(checkPeriod);
export type PartnerCommissionsQuery = z.output<typeof PartnerCommissionsQuery>;
export const PartnerCommissionDto = z.object({
  id: z.number().int(),
  kind: z.enum(['trade', 'cpa', 'reversal']),
  dealId: z.number().int().nullable(),
  depositId: z.number().int().nullable(),
  client: z.string(),
  instrument: z.string().nullable(),
  lots: MoneyString,
  level: z.number().int(),
  amount: MoneyString,
  currency: z.string(),
  accruedAt: z.string(),
});
export type PartnerCommissionDto = z.infer<typeof PartnerCommissionDto>;
export const PartnerCommissionsResponse = paged(PartnerCommissionDto);

/** A partner's id in a path (another partner's is 404). */
export const PartnerUserParam = z.object({ userId: idField('Invalid id') });
export const PartnerCustomerParam = z.object({ customerId: idField('Invalid id') });

/** GET /admin/partners/mirror-trades: the period and how close in time two opposite openings must be (1–300 s). */
export const PartnerMirrorQuery = z
  .object({
    dateStart: dateParam,
    dateEnd: dateParam,
    windowSeconds: z.coerce
      .number({ error: 'Window must be a number of seconds' })
      .int({ error: 'Whole seconds only' })
      .min(1, { error: 'At least 1 second' })
      .max(300, { error: 'At most 300 seconds' })
      .default(10),
  })
  .superRefine(checkPeriod);
export type PartnerMirrorQuery = z.output<typeof PartnerMirrorQuery>;

/** Two clients of one partner who opened opposite positions on one instrument within the window. */
export const PartnerMirrorPair = z.object({
  partnerId: z.number().int(),
  partnerName: z.string(),
  instrument: z.string(),
  firstOrderId: z.number().int(),
  firstClientId: z.number().int(),
  firstSide: z.enum(['buy', 'sell']),
  secondOrderId: z.number().int(),
  secondClientId: z.number().int(),
  secondsApart: z.number(),
  openedAt: z.string(),
});
export type PartnerMirrorPair = z.infer<typeof PartnerMirrorPair>;
export const PartnerMirrorResponse = z.object({
  dateStart: z.string(),
  dateEnd: z.string(),
  windowSeconds: z.number().int(),
  data: z.array(PartnerMirrorPair),
});

/** POST /affiliate/partner/subpartners: a partner invites a sub-partner, who sets a password from the mailed link. */
export const PartnerInviteRequest = z.object({
  fullName: requiredString('Full name is required', 120),
  email: emailField,
});
