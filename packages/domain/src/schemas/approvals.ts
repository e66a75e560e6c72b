import { z } from 'zod';
import { MoneyString, PageMeta, requiredString } from './common.ts';
import { nonNegativeMoney } from './money-fields.ts';

/**
 * Four-eyes approvals: an action above its threshold becomes a pending request a second staff member approves (the
 * action runs then, once) or rejects. Amounts compare in the site currency.
 */
export const APPROVAL_KINDS = [
  'withdrawal',
  'balance_adjustment',
  'deposit',
  'trade_edit',
  'trade_void',
  'plan_change',
  'gateway_secrets',
] as const;
export const ApprovalKind = z.enum(APPROVAL_KINDS);
export type ApprovalKind = z.infer<typeof ApprovalKind>;

export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected'] as const;
export const ApprovalStatus = z.enum(APPROVAL_STATUSES);
export type ApprovalStatus = z.infer<typeof ApprovalStatus>;

/** A threshold in the site currency; null (or empty) = off, the action stays single-step. */
const threshold = nonNegativeMoney('Threshold must be a number', 1_000_000_000)
  .nullable()
  .optional()
  .transform((v) => v ?? null);
const thresholdIn = z.preprocess((v) => (v === '' ? null : v), threshold);

/**
 * GET|PUT /admin/approvals/settings. An amount kind needs approval when its amount, in the site currency, is above its
 * threshold (0: every one); the two switches have no amount: on = always a second person.
 */
export const ApprovalSettingsRequest = z.object({
  withdrawal: thresholdIn,
  balanceAdjustment: thresholdIn,
  deposit: thresholdIn,
  trade: thresholdIn,
  planChange: z.boolean({ error: 'Plan change must be on or off' }).default(false),
  gatewaySecrets: z.boolean({ error: 'Gateway secrets must be on or off' }).default(false),
});
export type ApprovalSettingsRequest = z.input<typeof ApprovalSettingsRequest>;
export type ApprovalSettings = z.output<typeof ApprovalSettingsRequest>;

export const ApprovalSettingsResponse = z.object({
  withdrawal: MoneyString.nullable(),
  balanceAdjustment: MoneyString.nullable(),
  deposit: MoneyString.nullable(),
  trade: MoneyString.nullable(),
  planChange: z.boolean(),
  gatewaySecrets: z.boolean(),
  siteCurrency: z.string(),
});
export type ApprovalSettingsResponse = z.infer<typeof ApprovalSettingsResponse>;

/** The answer of an action that now waits for a second person (HTTP 202). */
export const ApprovalPendingResponse = z.object({ approvalId: z.number().int(), message: z.string() });
export type ApprovalPendingResponse = z.infer<typeof ApprovalPendingResponse>;

export const ApprovalListQuery = z.object({
  status: ApprovalStatus.default('pending'),
  page: z.coerce.number().int().min(1).max(100_000, { error: 'Page is out of range' }).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(15),
});
export type ApprovalListQuery = z.input<typeof ApprovalListQuery>;

const Person = z.object({ id: z.number().int(), full_name: z.string(), email: z.string() });

export const ApprovalDto = z.object({
  id: z.number().int(),
  kind: ApprovalKind,
  status: ApprovalStatus,
  summary: z.string(),
  requested_by: Person,
  target_user: Person.nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  amount: MoneyString.nullable(),
  currency: z.string().nullable(),
  amount_site: MoneyString.nullable(),
  site_currency: z.string(),
  threshold: MoneyString.nullable(),
  reason: z.string().nullable(),
  decided_by: Person.nullable(),
  decided_at: z.string().nullable(),
  decision_reason: z.string().nullable(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  /** Whether the caller may approve or reject it (a different staff member with the action's rights). */
  can_decide: z.boolean(),
});
export type ApprovalDto = z.infer<typeof ApprovalDto>;

export const ApprovalListResponse = z.object({ data: z.array(ApprovalDto), meta: PageMeta });
export type ApprovalListResponse = z.infer<typeof ApprovalListResponse>;

export const ApprovalRejectRequest = z.object({ reason: requiredString('Reason is required', 500) });
export type ApprovalRejectRequest = z.input<typeof ApprovalRejectRequest>;

/** An approval's answer: the outcome's message and the request as it is now. */
export const ApprovalDecisionResponse = z.object({ message: z.string(), approval: ApprovalDto });
export type ApprovalDecisionResponse = z.infer<typeof ApprovalDecisionResponse>;
