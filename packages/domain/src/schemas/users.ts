import { z } from 'zod';
import { isIP } from '../ip.ts';
import { emailField, passwordField, requiredString } from './common.ts';

const roleField = z.coerce
  .number({ error: 'Role is required' })
  .int()
  .min(1, { error: 'Role is required' })
  .max(6, { error: 'Role is required' });

/** Comma-separated IP addresses; blank means any address. */
export const WhitelistField = z
  .string()
  .trim()
  .max(2000)
  .optional()
  .nullable()
  .transform((s) =>
    (s ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean),
  )
  .refine((list) => list.every(isIP), { error: 'Whitelist must be comma-separated IP addresses' });

/** POST /admin/users (back-office spec §3 User create payload, §5 rules). */
export const StaffUserCreateRequest = z.object({
  fullName: requiredString('Full name is required', 120),
  email: emailField,
  password: passwordField,
  roleId: roleField.default(1),
  whitelist: WhitelistField,
  isEmailVerified: z.boolean({ error: 'Email verification is required' }),
  isActive: z.boolean({ error: 'Active status is required' }),
});
export type StaffUserCreateRequest = z.input<typeof StaffUserCreateRequest>;

/** PUT /admin/users/{id}: password optional (min 8 when given). */
export const StaffUserUpdateRequest = StaffUserCreateRequest.extend({
  password: z
    .string()
    .optional()
    .nullable()
    .transform((p) => (p ? p : undefined))
    .pipe(z.string().min(8, { error: 'Password must be at least 8 characters' }).max(128).optional()),
});
export type StaffUserUpdateRequest = z.input<typeof StaffUserUpdateRequest>;

export const StaffUserDto = z.object({
  id: z.number(),
  full_name: z.string(),
  email: z.string(),
  role_id: z.number(),
  is_email_verified: z.boolean(),
  is_active: z.boolean(),
  online: z.boolean(),
  whitelists: z.array(z.object({ ip_address: z.string() })),
  created_at: z.string(),
});
export type StaffUserDto = z.infer<typeof StaffUserDto>;
