import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  ForgotPasswordRequest,
  LoginRequest,
  ResetPasswordRequest,
  SignupRequest,
  TwoFactorLoginRequest,
} from '@platform/domain';
import type { AppContext } from '../../context.ts';
import { emitAll, insertStaffNotifications } from '../notifications/service.ts';
import type { DbOrTx } from '../../db/client.ts';
import { userProfiles, users } from '../../db/schema.ts';
import { openCustomerWallets } from '../wallets/open.ts';
import { findSignupPromoCode, linkSignupToPromoCode } from '../crm/promo-codes.ts';
import { hashPassword, verifyPassword } from '../../lib/crypto.ts';
import { AppError, fieldError, isUniqueViolation } from '../../lib/errors.ts';
import { getBranding, getSetting, isOn } from '../settings/service.ts';
import { createSession, destroySession, destroyUserSessions, ipAllowed } from './sessions.ts';
import { writeAudit } from '../../lib/audit.ts';
import { recordSignIn } from '../security/service.ts';
import { consumeToken, consumeTokenId, issueTokenRow, peekToken } from './tokens.ts';
import {
  acceptCode,
  acceptRecoveryCode,
  completeSetup,
  isEnabled,
  isRequiredFor,
  rowOf,
  startSetup,
} from '../two-factor/service.ts';

// Verifying against a real hash when the account does not exist keeps response times alike (no user enumeration).
const DUMMY_HASH = hashPassword('not-a-real-password-for-timing');

/** When the recaptcha switch is on, the human check must pass with the provider's verification call. */
export async function assertHuman(ctx: AppContext, humanKey: string | null | undefined, ip: string): Promise<void> {
  const rc = await getSetting(ctx.db, 'recaptcha');
  if (!isOn(rc, 'value3')) return;
  if (!humanKey)
    throw new AppError('CAPTCHA_FAILED', 'Please complete the human verification.', {
      humanKey: 'Please complete the human verification.',
    });
  const result = await ctx.captcha.verify({ secret: rc?.value2 ?? '', response: humanKey, remoteIp: ip });
  if (result === 'unavailable') throw new AppError('CAPTCHA_UNAVAILABLE');
  if (result === 'failed') throw new AppError('CAPTCHA_FAILED');
}

export async function findUserByEmail(db: DbOrTx, email: string) {
  const [u] = await db.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`).limit(1);
  return u ?? null;
}

/** Queues the mail with the single-use link that verifies a new customer's email (sign-up, a lead converted by staff). */
export async function sendVerificationMail(ctx: AppContext, userId: number): Promise<void> {
  await ctx.jobs.send('mail.verify-email', { userId });
}

/** A mail that SMTP refused is retried by the queue; without SMTP the outbox is the delivery. */
function assertDelivered(ctx: AppContext, sent: { delivered: boolean }): void {
  if (ctx.mailer.smtpEnabled && !sent.delivered) throw new Error('SMTP refused the mail; the queue retries it');
}

/**
 * The job behind sendVerificationMail: the link is made now, at delivery, so it is never stored anywhere but the
 * mail (and, without SMTP, the evaluation outbox). Nothing is sent to an account already verified or gone.
 */
export async function deliverVerificationMail(ctx: AppContext, userId: number, jobId?: string): Promise<void> {
  const [user] = await ctx.db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user || user.deletedAt || user.isEmailVerified) return;
  // A retry of a job whose mail went out (or may have) sends nothing, and makes no new link voiding the mailed one.
  if (jobId && !(await ctx.mailer.shouldSend(jobId))) return;
  const { appName } = await getBranding(ctx.db);
  const { id, token } = await issueTokenRow(ctx.db, user.id, 'verify_email');
  const link = `${ctx.config.appUrl}/verify-email?token=${token}`;
  const sent = await ctx.mailer.send(
    {
      to: user.email,
      subject: `Verify your email for ${appName}`,
      text: `Hello ${user.fullName},\n\nPlease confirm your email address by opening this link:\n${link}\n\nThe link works once and expires in 48 hours.\n\n${appName}`,
    },
    { link, tokenId: id },
    jobId,
  );
  assertDelivered(ctx, sent);
}

type Signup = z.output<typeof SignupRequest>;

/** Creates a client (role 3) with a real wallet and a demo wallet funded with the demo initial balance. */
export async function signup(
  ctx: AppContext,
  input: Signup,
  ip: string,
): Promise<{ message: string; emailVerification: boolean }> {
  await assertHuman(ctx, input.humanKey, ip);
  const branding = await getBranding(ctx.db);
  const currency = input.currency.toUpperCase();
  if (!branding.appCurrencies.includes(currency)) throw fieldError('currency', 'Unsupported currency');
  if (await findUserByEmail(ctx.db, input.email))
    throw new AppError('EMAIL_TAKEN', undefined, { email: 'An account with this email already exists.' });
  const emailVerification = branding.emailVerify === 'on';
  const passwordHash = await hashPassword(input.password);

  let userId: number;
  try {
    userId = await ctx.db.transaction(async (tx) => {
      // A code that matches no current staff code is kept as typed and links nothing: it never blocks a sign-up.
      const promo = await findSignupPromoCode(tx, input.promoCode);
      const [user] = await tx
        .insert(users)
        .values({
          fullName: input.fullName,
          email: input.email,
          passwordHash,
          roleId: 3,
          isEmailVerified: !emailVerification,
          promoCode: input.promoCode || null,
          promoCodeId: promo?.id ?? null,
        })
        .returning({ id: users.id });
      await tx.insert(userProfiles).values({
        userId: user.id,
        phone: input.phone,
        birthDate: input.birthDate,
        country: input.country,
        city: input.city,
        address: input.address,
        postalCode: input.postalCode,
      });
      await openCustomerWallets(tx, user.id, currency, branding.demoBalance);
      if (promo) {
        const customer = {
          id: user.id,
          fullName: input.fullName,
          email: input.email,
          phone: input.phone,
          country: input.country,
          city: input.city,
        };
        await linkSignupToPromoCode(tx, customer, promo);
      }
      return user.id;
    });
  } catch (err) {
    // Two sign-ups with one email at the same time: the unique index decides.
    if (isUniqueViolation(err))
      throw new AppError('EMAIL_TAKEN', undefined, { email: 'An account with this email already exists.' });
    throw err;
  }
  // Admins hear of every new customer; the link opens the customer's page in the back office.
  emitAll(
    ctx,
    await insertStaffNotifications(
      ctx.db,
      userId,
      {
        title: 'New customer',
        description: `${input.fullName} (${input.email}) signed up`,
        url: `/admin/customers/edit/${userId}`,
      },
      false,
    ),
  );
  if (emailVerification) {
    await sendVerificationMail(ctx, userId);
    return {
      emailVerification,
      message: `We have sent a verification email to ${input.email}. Please click the link in it to verify your account before signing in.`,
    };
  }
  return { emailVerification, message: 'Your account has been created successfully.' };
}

type Login = z.output<typeof LoginRequest>;
type LoginUser = NonNullable<Awaited<ReturnType<typeof findUserByEmail>>>;
interface SignInMeta {
  ip: string;
  userAgent?: string;
}

export type LoginOutcome =
  | { kind: 'session'; token: string; expiresAt: Date; user: { id: number; role_id: number } }
  /** A second step follows (docs/decisions.md "Staff two-factor sign-in"): no session yet, only a challenge. */
  | { kind: 'twoFactor'; twoFactor: 'code' | 'enrol'; challenge: string };

/** The checks a sign-in passes after its credentials, on the password step and again on the second step. */
async function assertMaySignIn(ctx: AppContext, user: LoginUser, ip: string): Promise<void> {
  if (!user.isActive) throw new AppError('ACCOUNT_INACTIVE');
  if (!user.isEmailVerified) throw new AppError('EMAIL_NOT_VERIFIED');
  if (user.roleId !== 3 && !(await ipAllowed(ctx.db, user.id, ip))) throw new AppError('IP_NOT_ALLOWED');
}

/** The one place a sign-in opens its session (password only, or password and second step). */
async function startSession(ctx: AppContext, user: LoginUser, remember: boolean, meta: SignInMeta) {
  const session = await createSession(ctx.db, { userId: user.id, remember, ip: meta.ip, userAgent: meta.userAgent });
  await recordSignIn(ctx.db, user.id, 'success', meta);
  return { ...session, user: { id: user.id, role_id: user.roleId } };
}

/**
 * 'code' when the user (staff or customer) has two-factor sign-in on, 'enrol' when a staff role requires it and it is
 * not on (a customer is never required to).
 */
async function secondStepOf(ctx: AppContext, user: LoginUser): Promise<'code' | 'enrol' | null> {
  if (isEnabled(await rowOf(ctx.db, user.id))) return 'code';
  return (await isRequiredFor(ctx.db, user.roleId)) ? 'enrol' : null;
}

/**
 * POST /authManager/back-to-admin: the "Login as" session ends, and a staff session opens only when the staff member
 * behind it could sign in afresh now: the same account checks as a sign-in (active, not deleted, verified, allowed
 * address) and no two-factor enrolment that their role has since made mandatory. Two-factor codes are not asked
 * again: the session that started "Login as" passed them, and anything that ends it ends this one too.
 */
export async function backToAdmin(
  ctx: AppContext,
  impersonation: { sessionId: number; impersonatorId: number; customerId: number },
  meta: SignInMeta,
): Promise<{ token: string; expiresAt: Date }> {
  const [staff] = await ctx.db.select().from(users).where(eq(users.id, impersonation.impersonatorId)).limit(1);
  await destroySession(ctx.db, impersonation.sessionId);
  if (!staff || staff.deletedAt || staff.roleId === 3) throw new AppError('UNAUTHENTICATED');
  await assertMaySignIn(ctx, staff, meta.ip);
  if ((await secondStepOf(ctx, staff)) === 'enrol')
    throw new AppError('UNAUTHENTICATED', 'Your role now requires two-factor sign-in: sign in again to set it up.');
  return ctx.db.transaction(async (tx) => {
    const session = await createSession(tx, {
      userId: staff.id,
      remember: false,
      ip: meta.ip,
      userAgent: meta.userAgent,
    });
    await writeAudit(tx, {
      actorId: staff.id,
      targetUserId: impersonation.customerId,
      action: 'customer.back_to_admin',
      before: null,
      after: null,
      ip: meta.ip,
    });
    return session;
  });
}

/** Checks credentials, account state, IP whitelist and attempt limits; returns a fresh session token or a challenge. */
export async function login(ctx: AppContext, input: Login, meta: SignInMeta): Promise<LoginOutcome> {
  let attempt: Awaited<ReturnType<AppContext['signInLimits']['begin']>>;
  try {
    attempt = await ctx.signInLimits.begin(input.email, meta.ip);
  } catch (err) {
    // A locked account's attempt stands in its history too.
    const known = await findUserByEmail(ctx.db, input.email);
    if (known && !known.deletedAt) await recordSignIn(ctx.db, known.id, 'locked', meta);
    throw err;
  }
  let user: Awaited<ReturnType<typeof findUserByEmail>>;
  let ok: boolean;
  let second: 'code' | 'enrol' | null = null;
  try {
    await assertHuman(ctx, input.humanKey, meta.ip);
    user = await findUserByEmail(ctx.db, input.email);
    ok =
      user && !user.deletedAt
        ? await verifyPassword(user.passwordHash, input.password)
        : (await verifyPassword(await DUMMY_HASH, input.password), false);
    if (user && ok) second = await secondStepOf(ctx, user);
  } catch (err) {
    await attempt.abandoned();
    throw err;
  }
  if (!user || !ok) {
    await attempt.failed();
    if (user && !user.deletedAt) await recordSignIn(ctx.db, user.id, 'wrong_password', meta);
    throw new AppError('INVALID_CREDENTIALS');
  }
  // The password was right: whatever follows (inactive, unverified, IP) is not a guess. With a second step still to
  // pass, earlier failures (wrong codes among them) stand until it passes: a password alone does not clear them.
  if (second) await attempt.abandoned();
  else await attempt.succeeded();
  await refusedUnlessMay(ctx, user, meta);
  if (second) {
    const { token } = await issueTokenRow(ctx.db, user.id, 'two_factor');
    return { kind: 'twoFactor', twoFactor: second, challenge: token };
  }
  return { kind: 'session', ...(await startSession(ctx, user, input.remember, meta)) };
}

/** assertMaySignIn, recording a refusal (inactive, unverified, address not allowed) in the account's history. */
async function refusedUnlessMay(ctx: AppContext, user: LoginUser, meta: SignInMeta): Promise<void> {
  try {
    await assertMaySignIn(ctx, user, meta.ip);
  } catch (err) {
    await recordSignIn(ctx.db, user.id, 'refused', meta);
    throw err;
  }
}

async function challengeUser(ctx: AppContext, challenge: string) {
  const found = await peekToken(ctx.db, challenge, 'two_factor');
  const [user] = found ? await ctx.db.select().from(users).where(eq(users.id, found.userId)).limit(1) : [];
  if (!found || !user || user.deletedAt) throw new AppError('TWO_FACTOR_CHALLENGE_INVALID');
  return { tokenId: found.id, user };
}

/** POST /auth/login/two-factor/setup: the secret and QR image for a user who must enrol before signing in. */
export async function loginTwoFactorSetup(ctx: AppContext, challenge: string) {
  const { user } = await challengeUser(ctx, challenge);
  if ((await secondStepOf(ctx, user)) !== 'enrol') throw new AppError('TWO_FACTOR_ALREADY_ENABLED');
  return startSetup(ctx.db, user);
}

/**
 * POST /auth/login/two-factor: the second step. Wrong codes count as failed sign-ins of the account; the challenge
 * is used up only by a right code, and the session opens exactly as a password-only sign-in does.
 */
export async function loginTwoFactor(ctx: AppContext, input: z.output<typeof TwoFactorLoginRequest>, meta: SignInMeta) {
  const { tokenId, user } = await challengeUser(ctx, input.challenge);
  const attempt = await ctx.signInLimits.begin(user.email, meta.ip);
  let ok = false;
  let recoveryCodes: string[] | undefined;
  try {
    const row = await rowOf(ctx.db, user.id);
    if (isEnabled(row)) {
      if (input.code) ok = await acceptCode(ctx.db, row, input.code);
      else if (input.recoveryCode) ok = await acceptRecoveryCode(ctx.db, row, input.recoveryCode);
    } else {
      if (!(await isRequiredFor(ctx.db, user.roleId))) throw new AppError('TWO_FACTOR_CHALLENGE_INVALID');
      if (!row || !input.code) throw new AppError('TWO_FACTOR_NOT_SET_UP');
      recoveryCodes = (await completeSetup(ctx.db, user.id, input.code, meta.ip, user.roleId)) ?? undefined;
      ok = recoveryCodes !== undefined;
    }
  } catch (err) {
    await attempt.abandoned();
    throw err;
  }
  if (!ok) {
    await attempt.failed();
    await recordSignIn(ctx.db, user.id, 'wrong_code', meta);
    throw new AppError('TWO_FACTOR_CODE_INVALID');
  }
  await attempt.succeeded();
  if (!(await consumeTokenId(ctx.db, tokenId))) throw new AppError('TWO_FACTOR_CHALLENGE_INVALID');
  await refusedUnlessMay(ctx, user, meta);
  return { ...(await startSession(ctx, user, input.remember, meta)), recoveryCodes };
}

export async function verifyEmail(db: DbOrTx, token: string): Promise<void> {
  const userId = await consumeToken(db, token, 'verify_email');
  if (!userId) throw new AppError('TOKEN_INVALID');
  await db.update(users).set({ isEmailVerified: true }).where(eq(users.id, userId));
}

/**
 * Sends a reset link when the account exists; answers the same either way, and as fast, so addresses cannot be
 * probed: the answer only queues the job, which looks the account up and mails.
 */
export async function requestPasswordReset(
  ctx: AppContext,
  input: z.output<typeof ForgotPasswordRequest>,
  ip: string,
): Promise<string> {
  await assertHuman(ctx, input.humanKey, ip);
  await ctx.jobs.send('mail.reset-password', { email: input.email });
  return `We have sent a verification email to ${input.email}. Please click the link in it to reset your password.`;
}

/** The job behind requestPasswordReset: a link made at delivery, for an active account only. */
export async function deliverResetLink(ctx: AppContext, email: string, jobId?: string): Promise<void> {
  const user = await findUserByEmail(ctx.db, email);
  if (!user || !user.isActive || user.deletedAt) return;
  if (jobId && !(await ctx.mailer.shouldSend(jobId))) return;
  const { appName } = await getBranding(ctx.db);
  const { id, token } = await issueTokenRow(ctx.db, user.id, 'reset_password');
  const link = `${ctx.config.appUrl}/reset-password?token=${token}`;
  const sent = await ctx.mailer.send(
    {
      to: user.email,
      subject: `Reset your ${appName} password`,
      text: `Hello ${user.fullName},\n\nTo set a new password, open this link:\n${link}\n\nThe link works once and expires in 1 hour. If you did not ask for this, ignore this email.\n\n${appName}`,
    },
    { link, tokenId: id },
    jobId,
  );
  assertDelivered(ctx, sent);
}

/** Sets the new password from a reset token and signs the account out everywhere. */
export async function resetPassword(ctx: AppContext, input: z.output<typeof ResetPasswordRequest>): Promise<void> {
  const passwordHash = await hashPassword(input.password);
  const email = await ctx.db.transaction(async (tx) => {
    const userId = await consumeToken(tx, input.token, 'reset_password');
    if (!userId) throw new AppError('TOKEN_INVALID');
    // Following the mailed link proves the address too.
    const [user] = await tx
      .update(users)
      .set({ passwordHash, isEmailVerified: true })
      .where(eq(users.id, userId))
      .returning({ email: users.email });
    await destroyUserSessions(tx, userId);
    return user.email;
  });
  // Whoever can read the mailbox may sign in again at once, even if the account was locked by failed guesses.
  await ctx.signInLimits.clearAccount(email);
}
