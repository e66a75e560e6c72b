import {
  IdParam,
  MessageResponse,
  RecoveryCodesResponse,
  TwoFactorCodeRequest,
  TwoFactorDisableRequest,
  TwoFactorPolicy,
  TwoFactorPolicyResponse,
  TwoFactorSetupResponse,
  TwoFactorStatusResponse,
} from '@platform/domain';
import { authOf, type RoutesPlugin } from '../../lib/http.ts';
import { AppError } from '../../lib/errors.ts';
import { requireRecentAuth } from '../security/service.ts';
import {
  adminReset,
  completeSetup,
  disable,
  regenerateRecoveryCodes,
  requiredRoles,
  savePolicy,
  startSetup,
  status,
} from './service.ts';

/** Every signed-in user manages their own two-factor sign-in (staff and, since issue 27, customers). */
const own = { access: 'user' } as const;

/** Staff signed in as a customer ("Login as") cannot change the customer's second factor. */
function ownChange(auth: { impersonatorId: number | null }): void {
  if (auth.impersonatorId !== null) throw new AppError('IMPERSONATION_FORBIDDEN');
}

export const twoFactorRoutes: RoutesPlugin = async (app) => {
  const { ctx } = app;
  const tags = ['two-factor'];

  app.get(
    '/security/two-factor',
    { config: own, schema: { tags, response: { 200: TwoFactorStatusResponse } } },
    async (req) => status(ctx.db, authOf(req).user),
  );

  app.post(
    '/security/two-factor/setup',
    { config: own, schema: { tags, response: { 200: TwoFactorSetupResponse } } },
    async (req) => {
      const auth = authOf(req);
      // Changes to two-factor sign-in need a recent sign-in or confirmation (401 with reauth: true otherwise).
      ownChange(auth);
      await requireRecentAuth(ctx.db, auth.sessionId);
      return startSetup(ctx.db, auth.user);
    },
  );

  app.post(
    '/security/two-factor/enable',
    {
      config: own,
      schema: { tags, body: TwoFactorCodeRequest, response: { 200: RecoveryCodesResponse } },
    },
    async (req) => {
      const auth = authOf(req);
      ownChange(auth);
      await requireRecentAuth(ctx.db, auth.sessionId);
      const recoveryCodes = await completeSetup(ctx.db, auth.user.id, req.body.code, req.ip, auth.user.roleId);
      if (!recoveryCodes) throw new AppError('TWO_FACTOR_CODE_INVALID');
      return { message: 'Two-factor sign-in is on', recoveryCodes };
    },
  );

  app.post(
    '/security/two-factor/disable',
    {
      config: own,
      schema: { tags, body: TwoFactorDisableRequest, response: { 200: MessageResponse } },
    },
    async (req) => {
      const auth = authOf(req);
      ownChange(auth);
      await requireRecentAuth(ctx.db, auth.sessionId);
      await disable(ctx, auth.user, req.ip, req.body);
      return { message: 'Two-factor sign-in is off' };
    },
  );

  app.post(
    '/security/two-factor/recovery-codes',
    {
      config: own,
      schema: { tags, body: TwoFactorCodeRequest, response: { 200: RecoveryCodesResponse } },
    },
    async (req) => {
      const auth = authOf(req);
      ownChange(auth);
      await requireRecentAuth(ctx.db, auth.sessionId);
      return {
        message: 'New recovery codes created',
        recoveryCodes: await regenerateRecoveryCodes(ctx, auth.user, req.ip, req.body.code),
      };
    },
  );

  app.get(
    '/admin/security/two-factor-policy',
    { config: { access: [1] }, schema: { tags, response: { 200: TwoFactorPolicyResponse } } },
    async () => ({ roles: await requiredRoles(ctx.db) }),
  );

  app.put(
    '/admin/security/two-factor-policy',
    { config: { access: [1] }, schema: { tags, body: TwoFactorPolicy, response: { 200: TwoFactorPolicyResponse } } },
    async (req) => ({ roles: await savePolicy(ctx, { id: authOf(req).user.id, ip: req.ip }, req.body.roles) }),
  );

  app.delete(
    '/admin/users/:id/two-factor',
    { config: { access: [1] }, schema: { tags, params: IdParam, response: { 200: MessageResponse } } },
    async (req) => ({ message: await adminReset(ctx, { id: authOf(req).user.id, ip: req.ip }, req.params.id) }),
  );
};
