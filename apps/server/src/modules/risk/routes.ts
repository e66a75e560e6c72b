import { RiskAccountsQuery, RiskAccountsResponse } from '@platform/domain';
import type { RoutesPlugin } from '../../lib/http.ts';
import { staffOf } from '../../lib/staff-scope.ts';
import { listAccountsAtRisk } from './accounts.ts';

/** The house's risk desk: admins see every wallet, managers their customers'. */
const adminManager = { access: [1, 2] } as const;

export const riskRoutes: RoutesPlugin = async (app) => {
  const { ctx } = app;
  app.get(
    '/admin/risk/accounts',
    {
      config: adminManager,
      schema: { tags: ['risk'], querystring: RiskAccountsQuery, response: { 200: RiskAccountsResponse } },
    },
    async (req) => listAccountsAtRisk(ctx, staffOf(req), req.query),
  );
};
