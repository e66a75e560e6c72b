import {
  IdParam,
  StatementExportQuery,
  StatementsQuery,
  StatementsResponse,
  StopoutReportsResponse,
  StopoutsQuery,
} from '@platform/domain';
import { authOf, type RoutesPlugin } from '../../lib/http.ts';
import { AppError } from '../../lib/errors.ts';
import { staffOf } from '../../lib/staff-scope.ts';
import { canViewCustomer } from '../customers/service.ts';
import { sendStatementExport } from './export.ts';
import { statementHistory } from './service.ts';
import { listStopouts } from './stopouts.ts';

export const statementsRoutes: RoutesPlugin = async (app) => {
  const { ctx } = app;
  const { db } = ctx;
  const tags = ['statements'];

  app.get(
    '/statements/history',
    {
      config: { access: 'user' },
      schema: { tags, querystring: StatementsQuery, response: { 200: StatementsResponse } },
    },
    async (req) => statementHistory(db, authOf(req).user.id, req.query),
  );

  app.get(
    '/statements/export',
    { config: { access: 'user' }, schema: { tags, querystring: StatementExportQuery } },
    async (req, reply) => sendStatementExport(ctx, reply, authOf(req).user.id, req.query),
  );

  app.get(
    '/statements/stopouts',
    {
      config: { access: 'user' },
      schema: { tags, querystring: StopoutsQuery, response: { 200: StopoutReportsResponse } },
    },
    async (req) => listStopouts(db, authOf(req).user.id, req.query),
  );
};

/**
 * The same statement and stop-out reports for staff on a customer's page: admins for any customer, managers for the
 * customers assigned to them; any other customer is not found.
 */
const adminManager = { access: [1, 2] } as const;

export const customerStatementsRoutes: RoutesPlugin = async (app) => {
  const { ctx } = app;
  const tags = ['admin customers'];
  const reachable = async (actor: ReturnType<typeof staffOf>, id: number) => {
    if (!(await canViewCustomer(ctx.db, actor, id))) throw new AppError('CUSTOMER_NOT_FOUND');
  };

  app.get(
    '/admin/customers/:id/statement',
    { config: adminManager, schema: { tags, params: IdParam, querystring: StatementExportQuery } },
    async (req, reply) => {
      await reachable(staffOf(req), req.params.id);
      return sendStatementExport(ctx, reply, req.params.id, req.query);
    },
  );

  app.get(
    '/admin/customers/:id/stopouts',
    {
      config: adminManager,
      schema: { tags, params: IdParam, querystring: StopoutsQuery, response: { 200: StopoutReportsResponse } },
    },
    async (req) => {
      await reachable(staffOf(req), req.params.id);
      return listStopouts(ctx.db, req.params.id, req.query);
    },
  );
};
