import { z } from 'zod';

/** One live session of a user, as the Security page lists it. */
export const SessionDto = z.object({
  id: z.number().int(),
  /** The browser and system the user agent names ("Chrome 131 on Windows"), or "Unknown device". */
  device: z.string(),
  ip: z.string().nullable(),
  started_at: z.string(),
  last_seen_at: z.string(),
  /** The session this request came in. */
  current: z.boolean(),
  /** A staff member's "Login as" session on the account. */
  staff: z.boolean(),
});
export type SessionDto = z.infer<typeof SessionDto>;
export const SessionsResponse = z.object({ data: z.array(SessionDto) });
export type SessionsResponse = z.infer<typeof SessionsResponse>;

export const SIGN_IN_RESULTS = ['success', 'wrong_password', 'wrong_code', 'refused', 'locked'] as const;
export type SignInResult = (typeof SIGN_IN_RESULTS)[number];

/** One sign-in attempt on the account. */
export const SignInDto = z.object({
  id: z.number().int(),
  at: z.string(),
  ip: z.string().nullable(),
  device: z.string(),
  result: z.enum(SIGN_IN_RESULTS),
});
export type SignInDto = z.infer<typeof SignInDto>;
/** The last 30 attempts, newest first. */
export const SignInsResponse = z.object({ data: z.array(SignInDto) });
export type SignInsResponse = z.infer<typeof SignInsResponse>;

export const SessionIdParams = z.object({
  id: z.coerce.number().int().positive({ error: 'Invalid id' }).max(2_147_483_647, { error: 'Invalid id' }),
});

/**
 * POST /auth/confirm: the password again (or, for a user with two-factor sign-in, a current code), which lets the
 * session make sensitive changes for the next 15 minutes.
 */
export const ConfirmRequest = z
  .object({
    password: z.string().min(1, { error: 'Password is required' }).max(200).optional(),
    code: z
      .string()
      .regex(/^\d{6}$/, { error: 'Enter the 6-digit code' })
      .optional(),
  })
  .refine((v) => v.password !== undefined || v.code !== undefined, {
    path: ['password'],
    error: 'Password is required',
  });
export type ConfirmRequest = z.input<typeof ConfirmRequest>;

/** How long a sign-in or a confirmation lets a session make sensitive changes. */
export const REAUTH_MINUTES = 15;
