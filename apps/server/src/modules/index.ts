import type { RoutesPlugin } from '../lib/http.ts';
import { authRoutes } from './auth/routes.ts';
import { settingsRoutes } from './settings/routes.ts';
import { accountRoutes } from './account/routes.ts';
import { usersRoutes } from './users/routes.ts';
import { mailRoutes } from './mail/routes.ts';
import { notificationsRoutes } from './notifications/routes.ts';
import { i18nRoutes } from './i18n/routes.ts';
import { impersonationRoutes } from './impersonation/routes.ts';
import { marketRoutes } from '../market/routes.ts';
import { apiStatusRoutes } from './api-status/routes.ts';
import { tradingRoutes } from './trading/routes.ts';
import { statementsRoutes } from './statements/routes.ts';
import { tradeManagementRoutes } from './trade-management/routes.ts';

/** Every business area's routes, mounted under /api. */
export const apiRoutes: RoutesPlugin = async (app) => {
  await app.register(authRoutes);
  await app.register(settingsRoutes);
  await app.register(accountRoutes);
  await app.register(usersRoutes);
  await app.register(mailRoutes);
  await app.register(notificationsRoutes);
  await app.register(i18nRoutes);
  await app.register(impersonationRoutes);
  await app.register(marketRoutes);
  await app.register(apiStatusRoutes);
  await app.register(tradingRoutes);
  await app.register(statementsRoutes);
  await app.register(tradeManagementRoutes);
};
