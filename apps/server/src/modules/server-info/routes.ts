import { ServerInfoDto } from '@platform/domain';
import type { RoutesPlugin } from '../../lib/http.ts';
import { serverInfo } from './service.ts';

/** Server Information (back-office spec §2, admin only), refreshed by the screen every few seconds. */
export const serverInfoRoutes: RoutesPlugin = async (app) => {
  app.get(
    '/admin/status/server',
    { config: { access: [1] }, schema: { tags: ['server'], response: { 200: ServerInfoDto } } },
    async () => serverInfo(app.ctx),
  );
};
