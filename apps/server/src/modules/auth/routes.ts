import { z } from 'zod';
import {
  CurrentUserResponse,
  ForgotPasswordRequest,
  IdParam,
  SignInLockResponse,
  LoginRequest,
  MessageResponse,
  ResetPasswordRequest,
  SignupRequest,
  SignupResponse,
  TwoFactorChallengeRequest,
  TwoFactorChallengeResponse,
  TwoFactorLoginRequest,
  TwoFactorLoginResponse,
  TwoFactorSetupResponse,
  VerifyEmailRequest,
} from '@platform/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authOf, type RoutesPlugin } from '../../lib/http.ts';
import { AppError } from '../../lib/errors.ts';
import { clearSessionCookie, setSessionCookie } from './cookie.ts';
import { getCurrentUser } from './current-user.ts';
import {
  backToAdmin,
  login,
  loginTwoFactor,
  loginTwoFactorSetup,
  requestPasswordReset,
  resetPassword,
  signup,
  verifyEmail,
} from './service.ts';
import { destroySession } from './sessions.ts';
import { clearSignInLock, signInLockOf } from './sign-in-lock.ts';

const LoginResponse = z.object({ message: z.string(), user: z.object({ id: z.number(), role_id: z.number() }) });
/** Per-IP request limits on the unauthenticated endpoints, beside the per-account failure limit. */
const authRateLimit = { rateLimit: { max: 30, timeWindow: '1 minute' } };
/** Sign-in allows more: colleagues behind one office address sign in at the same time (failures are limited apart). */
const signInRateLimit = { rateLimit: { max: 60, timeWindow: '1 minute' } };

export const authRoutes: RoutesPlugin = async (app) => {
  const { ctx } = app;

  app.post(
    '/auth/signup',
    {
      config: { access: 'public', ...authRateLimit },
      schema: { tags: ['auth'], body: SignupRequest, response: { 201: SignupResponse } },
    },
    async (req, reply) => reply.status(201).send(await signup(ctx, req.body, req.ip)),
  );

  /** Session rotation: a sign-in always replaces whatever session the browser carried. */
  async function openSession(
    req: FastifyRequest,
    reply: FastifyReply,
    session: { token: string; expiresAt: Date },
    remember: boolean,
  ) {
    if (req.auth) await destroySession(ctx.db, req.auth.sessionId);
    setSessionCookie(reply, ctx.config, session.token, remember, session.expiresAt);
  }

  app.post(
    '/auth/login',
    {
      config: { access: 'public', ...signInRateLimit },
      schema: {
        tags: ['auth'],
        body: LoginRequest,
        response: { 200: z.union([LoginResponse, TwoFactorChallengeResponse]) },
      },
    },
    async (req, reply) => {
      const result = await login(ctx, req.body, { ip: req.ip, userAgent: req.headers['user-agent'] });
      if (result.kind === 'twoFactor') {
        const message =
          result.twoFactor === 'code'
            ? 'Enter the code from your authenticator app'
            : 'Set up two-factor sign-in to continue';
        return { message, twoFactor: result.twoFactor, challenge: result.challenge };
      }
      await openSession(req, reply, result, req.body.remember);
      return { message: 'Signed in successfully', user: result.user };
    },
  );

  app.post(
    '/auth/login/two-factor/setup',
    {
      config: { access: 'public', ...signInRateLimit },
      schema: { tags: ['auth'], body: TwoFactorChallengeRequest, response: { 200: TwoFactorSetupResponse } },
    },
    async (req) => loginTwoFactorSetup(ctx, req.body.challenge),
  );

  app.post(
    '/auth/login/two-factor',
    {
      config: { access: 'public', ...signInRateLimit },
      schema: { tags: ['auth'], body: TwoFactorLoginRequest, response: { 200: TwoFactorLoginResponse } },
    },
    async (req, reply) => {
      const result = await loginTwoFactor(ctx, req.body, { ip: req.ip, userAgent: req.headers['user-agent'] });
      await openSession(req, reply, result, req.body.remember);
      return {
        message: 'Signed in successfully',
        user: result.user,
        ...(result.recoveryCodes ? { recoveryCodes: result.recoveryCodes } : {}),
      };
    },
  );

  app.post(
    '/auth/logout',
    { config: { access: 'public' }, schema: { tags: ['auth'], response: { 200: MessageResponse } } },
    async (req, reply) => {
      if (req.auth) await destroySession(ctx.db, req.auth.sessionId);
      clearSessionCookie(reply, ctx.config);
      return { message: 'Signed out' };
    },
  );

  app.get(
    '/auth/user',
    { config: { access: 'user' }, schema: { tags: ['auth'], response: { 200: CurrentUserResponse } } },
    async (req) => {
      const auth = authOf(req);
      return getCurrentUser(ctx.db, auth.user.id, auth.impersonatorId !== null);
    },
  );

  app.post(
    '/auth/verify-email',
    {
      config: { access: 'public', ...authRateLimit },
      schema: { tags: ['auth'], body: VerifyEmailRequest, response: { 200: MessageResponse } },
    },
    async (req) => {
      await verifyEmail(ctx.db, req.body.token);
      return { message: 'Your email address is verified. You can sign in now.' };
    },
  );

  app.post(
    '/forgot-password',
    {
      config: { access: 'public', ...authRateLimit },
      schema: { tags: ['auth'], body: ForgotPasswordRequest, response: { 200: MessageResponse } },
    },
    async (req) => ({ message: await requestPasswordReset(ctx, req.body, req.ip) }),
  );

  app.put(
    '/forgot-password',
    {
      config: { access: 'public', ...authRateLimit },
      schema: { tags: ['auth'], body: ResetPasswordRequest, response: { 200: MessageResponse } },
    },
    async (req) => {
      await resetPassword(ctx, req.body);
      return { message: 'Your new password has been set successfully.' };
    },
  );

  app.post(
    '/authManager/back-to-admin',
    { config: { access: 'user' }, schema: { tags: ['auth'], response: { 200: MessageResponse } } },
    async (req, reply) => {
      const auth = authOf(req);
      if (auth.impersonatorId === null) throw new AppError('NOT_IMPERSONATING');
      let session: { token: string; expiresAt: Date };
      try {
        session = await backToAdmin(
          ctx,
          { sessionId: auth.sessionId, impersonatorId: auth.impersonatorId, customerId: auth.user.id },
          { ip: req.ip, userAgent: req.headers['user-agent'] },
        );
      } catch (err) {
        // The customer's session has ended whatever happened: the browser holds no session any more.
        clearSessionCookie(reply, ctx.config);
        throw err;
      }
      setSessionCookie(reply, ctx.config, session.token, false, session.expiresAt);
      return { message: 'Back to your admin session' };
    },
  );

  // Failed sign-in locks (docs/decisions.md): admins see and clear them for any account, staff or customer.
  app.get(
    '/admin/users/:id/sign-in-lock',
    { config: { access: [1] }, schema: { tags: ['auth'], params: IdParam, response: { 200: SignInLockResponse } } },
    async (req) => signInLockOf(ctx, req.params.id),
  );

  app.delete(
    '/admin/users/:id/sign-in-lock',
    { config: { access: [1] }, schema: { tags: ['auth'], params: IdParam, response: { 200: MessageResponse } } },
    async (req) => ({ message: await clearSignInLock(ctx, { id: authOf(req).user.id, ip: req.ip }, req.params.id) }),
  );
};
