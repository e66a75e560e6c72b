import {
  ConfirmRequest,
  IdParam,
  MessageResponse,
  SessionIdParams,
  SessionsResponse,
  SignInsResponse,
} from '@platform/domain';
import { AppError } from '../../lib/errors.ts';
import { authOf, type RoutesPlugin } from '../../lib/http.ts';
import { staffOf } from '../../lib/staff-scope.ts';
import { canViewCustomer } from '../customers/service.ts';
import { confirmIdentity, endOtherSessions, endSession, listSessions, listSignIns } from './service.ts';

const tags = ['security'];
const user = { access: 'user' } as const;

/** Sessions and sign-in history of the caller (every role), staff's view of a customer's, and re-authentication. */
export const securityRoutes: RoutesPlugin = async (app) => {
  const { ctx } = app;
  const { db } = ctx;

  app.get(
    '/security/sessions',
    { config: user, schema: { tags, response: { 200: SessionsResponse } } },
    async (req) => {
      const auth = authOf(req);
      return { data: await listSessions(db, auth.user.id, auth.sessionId) };
    },
  );

  app.delete(
    '/security/sessions/:id',
    { config: user, schema: { tags, params: SessionIdParams, response: { 200: MessageResponse } } },
    async (req) => {
      await endSession(db, authOf(req).user.id, req.params.id);
      return { message: 'Session signed out' };
    },
  );

  app.delete(
    '/security/sessions',
    { config: user, schema: { tags, response: { 200: MessageResponse } } },
    async (req) => {
      const auth = authOf(req);
      const n = await endOtherSessions(db, auth.user.id, auth.sessionId);
      return { message: n === 1 ? '1 other session signed out' : `${n} other sessions signed out` };
    },
  );

  app.get(
    '/security/sign-ins',
    { config: user, schema: { tags, response: { 200: SignInsResponse } } },
    async (req) => ({
      data: await listSignIns(db, authOf(req).user.id),
    }),
  );

  // The person at the keyboard confirms: during "Login as", the staff member with their own password. Wrong answers
  // lock the account as sign-ins do; the address's limit is the other sign-in routes' (30 a minute).
  app.post(
    '/auth/confirm',
    {
      config: { ...user, rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: { tags: ['auth'], body: ConfirmRequest, response: { 200: MessageResponse } },
    },
    async (req) => {
      const auth = authOf(req);
      await confirmIdentity(ctx, auth.impersonatorId ?? auth.user.id, auth.sessionId, req.body, req.ip);
      return { message: 'Confirmed' };
    },
  );

  /** Staff who may open the customer see the same (another's customer is a 404). */
  async function ensureCustomer(req: Parameters<typeof staffOf>[0], id: number) {
    if (!(await canViewCustomer(db, staffOf(req), id))) throw new AppError('CUSTOMER_NOT_FOUND');
  }
  const staff = { access: [1, 2, 5, 6] } as const;
  app.get(
    '/admin/customers/:id/sessions',
    { config: staff, schema: { tags, params: IdParam, response: { 200: SessionsResponse } } },
    async (req) => {
      await ensureCustomer(req, req.params.id);
      return { data: await listSessions(db, req.params.id, null) };
    },
  );
  app.get(
    '/admin/customers/:id/sign-ins',
    { config: staff, schema: { tags, params: IdParam, response: { 200: SignInsResponse } } },
    async (req) => {
      await ensureCustomer(req, req.params.id);
      return { data: await listSignIns(db, req.params.id) };
    },
  );
};
