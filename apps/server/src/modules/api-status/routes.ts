import type { RoutesPlugin } from '../../lib/http.ts';
import { ApiStatusResponse } from '@platform/domain';
import { getApiStatus } from './service.ts';

/** API Status (Health Monitor) is an admin screen (back-office menu: role 1). */
const adminOnly = { access: [1] } as const;

export const apiStatusRoutes: RoutesPlugin = async (app) => {
  const { db, market } = app.ctx;

  app.get(
    '/admin/api-status',
    { config: adminOnly, schema: { tags: ['api status'], response: { 200: ApiStatusResponse } } },
    // The market's feeds are read per request: the feed manager may be attached after the routes are built.
    async () => getApiStatus(db, market),
  );
};
