import { z } from 'zod';
import { STAFF_ROLES } from '../roles.ts';
import { requiredString, secretString } from './common.ts';

/** A 6-digit code from an authenticator app (spaces typed between the digits are ignored). */
export const totpCode = z
  .string({ error: 'Enter the 6-digit code' })
  .max(20, { error: 'Enter the 6-digit code' })
  .transform((s) => s.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, { error: 'Enter the 6-digit code' }));

/** A recovery code as printed (xxxxx-xxxxx); case, spaces and dashes do not matter. */
export const recoveryCode = z
  .string({ error: 'Enter a recovery code' })
  .max(40, { error: 'Enter a recovery code' })
  .transform((s) => s.replace(/[\s-]+/g, '').toLowerCase())
  .pipe(z.string().regex(/^[a-z0-9]{10}$/, { error: 'Enter a recovery code' }));

const challengeField = requiredString('Your sign-in has expired. Please sign in again.', 200);

/** POST /auth/login answer when a second step follows: no session yet, only a short-lived challenge. */
export const TwoFactorChallengeResponse = z.object({
  message: z.string(),
  twoFactor: z.enum(['code', 'enrol']),
  challenge: z.string(),
});
export type TwoFactorChallengeResponse = z.infer<typeof TwoFactorChallengeResponse>;

export const TwoFactorChallengeRequest = z.object({ challenge: challengeField });

/** POST /auth/login/two-factor: the challenge and either an app code or a recovery code. */
export const TwoFactorLoginRequest = z
  .object({
    challenge: challengeField,
    code: totpCode.optional(),
    recoveryCode: recoveryCode.optional(),
    remember: z.boolean().optional().default(false),
  })
  .refine((v) => (v.code === undefined) !== (v.recoveryCode === undefined), {
    path: ['code'],
    error: 'Enter the 6-digit code',
  });
export type TwoFactorLoginRequest = z.input<typeof TwoFactorLoginRequest>;

export const TwoFactorLoginResponse = z.object({
  message: z.string(),
  user: z.object({ id: z.number(), role_id: z.number() }),
  /** Only after enrolling during sign-in: shown once. */
  recoveryCodes: z.array(z.string()).optional(),
});

/** A pending set-up: the secret to type in, the otpauth:// link and its QR image. */
export const TwoFactorSetupResponse = z.object({ secret: z.string(), otpauthUrl: z.string(), qrDataUrl: z.string() });
export type TwoFactorSetupResponse = z.infer<typeof TwoFactorSetupResponse>;

export const TwoFactorStatusResponse = z.object({
  enabled: z.boolean(),
  required: z.boolean(),
  recoveryCodesLeft: z.number().int(),
});
export type TwoFactorStatusResponse = z.infer<typeof TwoFactorStatusResponse>;

export const TwoFactorCodeRequest = z.object({ code: totpCode });
export const TwoFactorDisableRequest = z.object({ password: secretString('Password is required'), code: totpCode });

export const RecoveryCodesResponse = z.object({ message: z.string(), recoveryCodes: z.array(z.string()) });
export type RecoveryCodesResponse = z.infer<typeof RecoveryCodesResponse>;

/** GET/PUT /admin/security/two-factor-policy: the staff roles that must use two-factor sign-in. */
export const TwoFactorPolicy = z.object({
  roles: z
    .array(
      z
        .number()
        .int()
        .refine((r) => (STAFF_ROLES as readonly number[]).includes(r), { error: 'Only staff roles can be required' }),
    )
    .max(10)
    .transform((rs) => [...new Set(rs)].sort((a, b) => a - b)),
});
export type TwoFactorPolicy = z.infer<typeof TwoFactorPolicy>;
export const TwoFactorPolicyResponse = z.object({ roles: z.array(z.number().int()) });
