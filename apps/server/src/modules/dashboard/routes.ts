import { DashboardQuery, DashboardResponse } from '@platform/domain';
import type { RoutesPlugin } from '../../lib/http.ts';
import { dashboard } from './service.ts';

/** The admin dashboard (back-office spec §2, role 1). */
export const dashboardRoutes: RoutesPlugin = async (app) => {
  app.get(
    '/admin/dashboard',
    {
      config: { access: [1] },
      schema: { tags: ['dashboard'], querystring: DashboardQuery, response: { 200: DashboardResponse } },
    },
    async (req) => dashboard(app.ctx.db, req.query),
  );
};
