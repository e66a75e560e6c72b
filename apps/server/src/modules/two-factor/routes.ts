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

/** Staff roles only: customers (role 3) do not use two-factor sign-in. */
const STAFF = [1, 2, 4, 5, 6] as const;

export const twoFactorRoutes: RoutesPlugin = async (app) => {
  const { ctx } = app;
  const tags = ['two-factor'];

  app.get(
    '/security/two-factor',
    { config: { access: [...STAFF] }, schema: { tags, response: { 200: TwoFactorStatusResponse } } },
    async (req) => status(ctx.db, authOf(req).user),
  );

  app.post(
    '/security/two-factor/setup',
    { config: { access: [...STAFF] }, schema: { tags, response: { 200: TwoFactorSetupResponse } } },
    async (req) => startSetup(ctx.db, authOf(req).user),
  );

  app.post(
    '/security/two-factor/enable',
    {
      config: { access: [...STAFF] },
      schema: { tags, body: TwoFactorCodeRequest, response: { 200: RecoveryCodesResponse } },
    },
    async (req) => {
      const recoveryCodes = await completeSetup(ctx.db, authOf(req).user.id, req.body.code, req.ip);
      if (!recoveryCodes) throw new AppError('TWO_FACTOR_CODE_INVALID');
      return { message: 'Two-factor sign-in is on', recoveryCodes };
    },
  );

  app.post(
    '/security/two-factor/disable',
    {
      config: { access: [...STAFF] },
      schema: { tags, body: TwoFactorDisableRequest, response: { 200: MessageResponse } },
    },
    async (req) => {
      await disable(ctx, authOf(req).user, req.ip, req.body);
      return { message: 'Two-factor sign-in is off' };
    },
  );

  app.post(
    '/security/two-factor/recovery-codes',
    {
      config: { access: [...STAFF] },
      schema: { tags, body: TwoFactorCodeRequest, response: { 200: RecoveryCodesResponse } },
    },
    async (req) => ({
      message: 'New recovery codes created',
      recoveryCodes: await regenerateRecoveryCodes(ctx, authOf(req).user, req.ip, req.body.code),
    }),
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
