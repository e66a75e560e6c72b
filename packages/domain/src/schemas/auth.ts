import { z } from 'zod';
import { isCountry } from '../countries.ts';
import {
  DateString,
  emailField,
  isAdult,
  parseIsoDate,
  optionalString,
  passwordField,
  requiredString,
  safeString,
  secretString,
} from './common.ts';

export const LoginRequest = z.object({
  email: emailField,
  password: secretString('Password is required'),
  remember: z.boolean().optional().default(false),
  humanKey: safeString(4000).optional().nullable(),
});
export type LoginRequest = z.input<typeof LoginRequest>;

const phoneField = requiredString('Phone is required', 32).regex(/^\+?[0-9 ()-]{5,}$/, {
  error: 'Invalid phone number',
});
const countryField = requiredString('Country is required', 100).refine(isCountry, { error: 'Unknown country' });
const birthDateField = DateString.refine((d) => parseIsoDate(d) === null || isAdult(d), {
  error: 'You must be at least 18 years old to open an account',
});

/** Profile fields shared by sign-up and the profile form. */
export const ProfileFields = z.object({
  fullName: requiredString('Full name is required', 120),
  phone: phoneField,
  birthDate: birthDateField,
  country: countryField,
  city: requiredString('City is required', 100),
  address: requiredString('Address is required', 255),
  postalCode: requiredString('Postal code is required', 20),
});

export const SignupRequest = ProfileFields.extend({
  email: emailField,
  password: passwordField,
  passwordConfirmation: secretString('Password confirmation is required'),
  promoCode: optionalString(64),
  currency: requiredString('Currency is required', 10),
  humanKey: safeString(4000).optional().nullable(),
}).refine((v) => v.password === v.passwordConfirmation, {
  path: ['passwordConfirmation'],
  error: 'Passwords must match',
});
export type SignupRequest = z.input<typeof SignupRequest>;

export const ForgotPasswordRequest = z.object({
  email: emailField,
  humanKey: safeString(4000).optional().nullable(),
});
export const ResetPasswordRequest = z.object({
  password: passwordField,
  token: requiredString('Token is required', 200),
});
export const VerifyEmailRequest = z.object({ token: requiredString('Token is required', 200) });

export const ChangePasswordRequest = z.object({
  currentPassword: secretString('Current password is required'),
  newPassword: z
    .string({ error: 'New password is required' })
    .min(1, { error: 'New password is required' })
    .min(8, { error: 'New password must be at least 8 characters' })
    .max(128),
});

/** PUT /profile/me. The phone may be left out (retail-agent mode does not send it). */
export const ProfileUpdateRequest = ProfileFields.extend({ phone: phoneField.optional() });
export type ProfileUpdateRequest = z.input<typeof ProfileUpdateRequest>;

/** PUT /profile/name: one's own name alone (staff have no customer profile to fill in). */
export const NameUpdateRequest = ProfileFields.pick({ fullName: true });
export type NameUpdateRequest = z.input<typeof NameUpdateRequest>;

/** GET /admin/users/{id}/sign-in-lock: locked by failed sign-ins, and the minutes until it opens by itself. */
export const SignInLockResponse = z.object({ locked: z.boolean(), minutes: z.number().int() });
export type SignInLockResponse = z.infer<typeof SignInLockResponse>;

export const SignupResponse = z.object({ message: z.string(), emailVerification: z.boolean() });

export const BalanceDto = z.object({
  id: z.number(),
  mode: z.enum(['demo', 'real']),
  currency: z.string(),
  balance: z.string(),
  margin: z.string(),
  /** True while the wallet is in margin call (fired and not yet re-armed). */
  margin_call: z.boolean().optional(),
});
export type BalanceDto = z.infer<typeof BalanceDto>;

/**
 * How a pricing plan's accounts hold positions: hedging (any number per instrument, each closed on its own; the
 * default) or netting (at most one per instrument: an order the other way reduces, closes or reverses it).
 */
export const ACCOUNT_TYPES = ['hedging', 'netting'] as const;
export const AccountType = z.enum(ACCOUNT_TYPES, { error: 'Choose hedging or netting' });
export type AccountType = z.infer<typeof AccountType>;

export const PricingTableDto = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  price: z.string(),
  forex_leverage: z.number().nullable(),
  commodity_leverage: z.number().nullable(),
  index_leverage: z.number().nullable(),
  stock_leverage: z.number().nullable(),
  crypto_leverage: z.number().nullable(),
  forex_stopout: z.number().nullable(),
  commodity_stopout: z.number().nullable(),
  index_stopout: z.number().nullable(),
  stock_stopout: z.number().nullable(),
  crypto_stopout: z.number().nullable(),
  /** Hedging or netting (always sent; optional for older fixtures). */
  account_type: AccountType.optional(),
  /**
   * Commission per lot or per million of notional (commission_basis) by category, charged at open, close or both;
   * the margin-call level (null: none) and its re-arm margin; swap-free terms. Always sent; optional for older
   * fixtures.
   */
  forex_commission: z.string().optional(),
  commodity_commission: z.string().optional(),
  index_commission: z.string().optional(),
  stock_commission: z.string().optional(),
  crypto_commission: z.string().optional(),
  commission_basis: z.enum(['lot', 'million']).optional(),
  commission_charge: z.enum(['open', 'close', 'both']).optional(),
  margin_call_level: z.number().nullable().optional(),
  margin_call_rearm: z.number().optional(),
  swap_free: z.boolean().optional(),
  swap_free_fee: z.string().optional(),
  swap_free_days: z.number().optional(),
  /** Retail protections: leverage capped per instrument class (retail_caps), close-out at 50 % or above. */
  retail: z.boolean().optional(),
  retail_caps: z.record(z.string(), z.number()).optional(),
});
export type PricingTableDto = z.infer<typeof PricingTableDto>;

export const ProfileDto = z.object({
  phone: z.string().nullable(),
  birth_date: z.string().nullable(),
  country: z.string().nullable(),
  city: z.string().nullable(),
  address: z.string().nullable(),
  postal_code: z.string().nullable(),
});

export const CurrentUserResponse = z.object({
  user: z.object({
    id: z.number(),
    full_name: z.string(),
    email: z.string(),
    role_id: z.number(),
    pricing_table_id: z.number().nullable(),
    is_email_verified: z.boolean(),
    balances: z.array(BalanceDto),
    profile: ProfileDto,
    pricingTable: PricingTableDto.nullable(),
  }),
  activeBalance: BalanceDto.nullable(),
  isKyc: z.boolean(),
  /**
   * Which actions the site settings hold back until KYC is approved (KYC Required For Deposit / Withdraw / Trade):
   * with isKyc, the client shows a KYC notice exactly where the server would refuse (trading only on a real wallet).
   */
  kycRequired: z.object({ deposit: z.boolean(), withdraw: z.boolean(), trade: z.boolean() }),
  /** True while a staff member acts as this user ("Login as"). */
  impersonating: z.boolean(),
});
export type CurrentUserResponse = z.infer<typeof CurrentUserResponse>;

export const SwitchWalletRequest = z.object({
  balanceId: z.coerce
    .number()
    .int()
    .positive({ error: 'Wallet is required' })
    .max(2_147_483_647, { error: 'Wallet not found' }),
});
