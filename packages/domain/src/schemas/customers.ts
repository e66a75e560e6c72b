import { z } from 'zod';
import { isCountry } from '../countries.ts';
import { BalanceDto } from './auth.ts';
import {
  DateString,
  PagedQuery,
  emailField,
  optionalString,
  paged,
  parseIsoDate,
  passwordField,
  requiredString,
} from './common.ts';
import { moneyAmount } from './money.ts';
import { Customer360, Customer360Query } from './customer-360.ts';

/**
 * Back-office Customers (back-office spec §2 Customers, §3 Balance, §5 customer create/edit rules). The same schemas
 * validate the server's input and the screens' forms.
 */

export const CUSTOMER_LIST_TYPES = ['all', 'inactive'] as const;
export const CustomerListParams = z.object({ type: z.enum(CUSTOMER_LIST_TYPES, { error: 'Unknown list' }) });

/** The picker value meaning "nobody / no plan" (spec §9: unassigned is -2). */
export const UNASSIGNED = -2;

export const CustomerListItem = z.object({
  id: z.number(),
  full_name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  birth_date: z.string().nullable(),
  country: z.string().nullable(),
  role_id: z.number(),
  is_email_verified: z.boolean(),
  is_active: z.boolean(),
  ...Customer360.shape,
});
export type CustomerListItem = z.infer<typeof CustomerListItem>;
export const CustomerListResponse = paged(CustomerListItem);
export type CustomerListResponse = z.infer<typeof CustomerListResponse>;
export const CustomerListQuery = PagedQuery.extend(Customer360Query.shape);
export type CustomerListQuery = z.infer<typeof CustomerListQuery>;

/** Blank input is "not given": staff may not know every detail of a customer. */
const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);
const optionalPhone = z.preprocess(
  blankToNull,
  requiredString('Phone is required', 32)
    .regex(/^\+?[0-9 ()-]{5,}$/, { error: 'Invalid phone number' })
    .nullable()
    .optional(),
);
const optionalBirthDate = z.preprocess(
  blankToNull,
  DateString.refine((d) => parseIsoDate(d) !== null)
    .nullable()
    .optional(),
);
const optionalCountry = z.preprocess(
  blankToNull,
  requiredString('Country is required', 100).refine(isCountry, { error: 'Unknown country' }).nullable().optional(),
);

/** A picker's choice: a user or plan id, or -2 / empty for none. */
const pickerId = z
  .preprocess(
    (v) => (v === '' || v === null || v === undefined ? UNASSIGNED : v),
    z.coerce.number().int().min(UNASSIGNED).max(2_147_483_647),
  )
  .transform((n) => (n > 0 ? n : null));

const profileShape = {
  phone: optionalPhone,
  birthDate: optionalBirthDate,
  country: optionalCountry,
  city: optionalString(100),
  postalCode: optionalString(20),
  address: optionalString(255),
};

/** POST /admin/customers (spec §5 "Customer create"). */
export const CustomerCreateRequest = z.object({
  fullName: requiredString('Full name is required', 120),
  email: emailField,
  password: passwordField,
  isEmailVerified: z.boolean({ error: 'Email verification is required' }),
  isActive: z.boolean({ error: 'Active status is required' }),
  ...profileShape,
});
export type CustomerCreateRequest = z.input<typeof CustomerCreateRequest>;

/** PUT /admin/customers/{id}: the password is optional (min 8 when given); manager and plan pickers use -2 for none. */
export const CustomerUpdateRequest = CustomerCreateRequest.extend({
  password: z
    .string()
    .optional()
    .nullable()
    .transform((p) => (p ? p : undefined))
    .pipe(z.string().min(8, { error: 'Password must be at least 8 characters' }).max(128).optional()),
  // Customers keep the customer role: staff accounts are made in Admin & Staffs.
  roleId: z.coerce
    .number()
    .int()
    .refine((r) => r === 3, { error: 'Customers keep the customer role' })
    .optional(),
  managerId: pickerId.optional(),
  pricingTableId: pickerId.optional(),
});
export type CustomerUpdateRequest = z.input<typeof CustomerUpdateRequest>;

export const CustomerCreatedResponse = z.object({ message: z.string(), id: z.number() });

/** GET /admin/share/users/{id}: the customer as the edit screen shows it (masked contacts for role 6). */
export const CustomerDetailResponse = z.object({
  id: z.number(),
  full_name: z.string(),
  email: z.string(),
  role_id: z.number(),
  is_email_verified: z.boolean(),
  is_active: z.boolean(),
  online: z.boolean(),
  pricing_table_id: z.number().nullable(),
  manager_id: z.number().nullable(),
  balances: z.array(BalanceDto),
  profile: z.object({
    phone: z.string().nullable(),
    birth_date: z.string().nullable(),
    country: z.string().nullable(),
    city: z.string().nullable(),
    address: z.string().nullable(),
    postal_code: z.string().nullable(),
    manager_id: z.number().nullable(),
  }),
  /** True when the viewer may only read (role 6, or a staff member's own profile). */
  read_only: z.boolean(),
});
export type CustomerDetailResponse = z.infer<typeof CustomerDetailResponse>;

/** PUT /admin/balance/{balanceId} (spec §3 Balance adjustment) with the reason the ledger keeps. */
export const BalanceAdjustRequest = z.object({
  amount: moneyAmount('Amount is required'),
  type: z.enum(['add', 'subtract'], { error: 'Type must be add or subtract' }),
  reason: requiredString('Reason is required', 255),
});
export type BalanceAdjustRequest = z.input<typeof BalanceAdjustRequest>;
export const BalanceAdjustResponse = z.object({ message: z.string(), balance: z.string() });

/** Pickers: users of one role (managers 2, agents 5, retention agents 6). */
export const StaffPickerParams = z.object({
  roleId: z.coerce
    .number()
    .int()
    .refine((r) => r === 2 || r === 5 || r === 6, { error: 'Unknown role' }),
});
export const StaffPickerItem = z.object({ id: z.number(), full_name: z.string(), email: z.string() });
export type StaffPickerItem = z.infer<typeof StaffPickerItem>;
export const StaffPickerResponse = z.object({ data: z.array(StaffPickerItem) });
export type StaffPickerResponse = z.infer<typeof StaffPickerResponse>;

/** Realtime: a page view a customer's browser reports, relayed to staff watching them as `track:{userId}`. */
export const TrackEntry = z.object({ url: z.string(), time: z.string() });
export type TrackEntry = z.infer<typeof TrackEntry>;
/** Realtime `presence` to staff: a customer's first socket connected or last one closed. */
export const PresenceEvent = z.object({ userId: z.number(), online: z.boolean() });
export type PresenceEvent = z.infer<typeof PresenceEvent>;
