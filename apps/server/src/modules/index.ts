import type { RoutesPlugin } from '../lib/http.ts';
import { authRoutes } from './auth/routes.ts';
import { settingsRoutes } from './settings/routes.ts';
import { accountRoutes } from './account/routes.ts';

/** Every business area's routes, mounted under /api. */
export const apiRoutes: RoutesPlugin = async (app) => {
  await app.register(authRoutes);
  await app.register(settingsRoutes);
  await app.register(accountRoutes);
};
