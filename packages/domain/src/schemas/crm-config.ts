import { z } from 'zod';
import { PagedQuery, optionalString, paged, requiredString } from './common.ts';

/**
 * CRM configuration beyond sales statuses: Teams (back-office §2 CRM configuration, §3, §5 Team, §7) and the staff
 * Promo Code page (§2, §7). The same schemas validate the server's input and the screens' forms.
 */

const MAX_ID = 2_147_483_647;

/** A picker's user id: empty, -2 (the pickers' "unassigned") or anything but a positive id is a missing manager. */
const managerId = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  z.coerce
    .number({ error: 'Manager is required' })
    .int({ error: 'Manager is required' })
    .positive({ error: 'Manager is required' })
    .max(MAX_ID, { error: 'Manager is required' }),
);
const memberId = z.coerce.number().int().positive({ error: 'Invalid id' }).max(MAX_ID, { error: 'Invalid id' });

/** POST /admin/crm-config/teams, PUT .../{id}: the manager (role 2) and the members (agents 5 and retention agents 6). */
export const TeamRequest = z.object({
  name: requiredString('Name is required', 100),
  code: optionalString(50).transform((c) => c || null),
  userId: managerId,
  userIds: z
    .array(z.object({ id: memberId }), { error: 'Choose agents from the list' })
    .max(200, { error: 'At most 200 members' })
    .default([]),
});
export type TeamRequest = z.input<typeof TeamRequest>;

export const TeamMember = z.object({ id: z.number(), full_name: z.string(), role_id: z.number() });
export type TeamMember = z.infer<typeof TeamMember>;

export const TeamItem = z.object({
  id: z.number(),
  name: z.string(),
  code: z.string().nullable(),
  /** The manager's id (null once the manager's account is deleted); the list shows the name or "-". */
  user_id: z.number().nullable(),
  manager: z.object({ id: z.number(), full_name: z.string() }).nullable(),
  members: z.array(TeamMember),
});
export type TeamItem = z.infer<typeof TeamItem>;
export const TeamListResponse = paged(TeamItem);
export type TeamListResponse = z.infer<typeof TeamListResponse>;
export const TeamListQuery = PagedQuery;

/** Letters and digits a promo code is made of: no 0/O or 1/I/L, so a code read aloud or retyped stays right. */
export const PROMO_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const PROMO_CODE_LENGTH = 8;

/** How a typed promo code is compared: trimmed, upper case. */
export const normalisePromoCode = (code: string): string => code.trim().toUpperCase();

/**
 * POST /admin/promo-code. The spec's payload carries `code`; the server always makes the code itself, so a `code`
 * sent is accepted (bounded like any text) and ignored (docs/decisions.md, Promo codes).
 */
export const PromoCodeRequest = z.object({ code: optionalString(64) }).nullish();

export const PromoCodeResponse = z.object({ code: z.string().nullable(), created_at: z.string().nullable() });
export type PromoCodeResponse = z.infer<typeof PromoCodeResponse>;
export const PromoCodeGenerateResponse = PromoCodeResponse.extend({ message: z.string() });
export type PromoCodeGenerateResponse = z.infer<typeof PromoCodeGenerateResponse>;
