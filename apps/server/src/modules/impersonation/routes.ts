import { IdParam, LoginAsResponse } from '@platform/domain';
import { authOf, type RoutesPlugin } from '../../lib/http.ts';
import { setSessionCookie } from '../auth/cookie.ts';
import { loginAsCustomer } from './service.ts';

export const impersonationRoutes: RoutesPlugin = async (app) => {
  const { ctx } = app;

  app.post(
    '/admin/customers/login-as/:id',
    // Admins and managers. Retention agents read customers' contacts masked, and a customer's own screens show them
    // whole, so they are not offered "Login as" (docs/decisions.md, "Login as and masked contacts").
    {
      config: { access: [1, 2] },
      schema: { tags: ['admin customers'], params: IdParam, response: { 200: LoginAsResponse } },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const session = await loginAsCustomer(ctx.db, {
        staffId: auth.user.id,
        staffRoleId: auth.user.roleId,
        staffSessionId: auth.sessionId,
        customerId: req.params.id,
        ip: req.ip,
        userAgent: req.headers['user-agent'],
      });
      // Same cookie name: the browser swaps the staff session for the customer's (session rotation).
      setSessionCookie(reply, ctx.config, session.token, false, session.expiresAt);
      return { message: 'Logged in as customer', redirect: '/' };
    },
  );
};
