import {
  ExposureQuery,
  ExposureResponse,
  RealisedQuery,
  RealisedResponse,
  RiskAccountsQuery,
  RiskAccountsResponse,
  RiskLimitsResponse,
  RiskLimitsUpdate,
  TopClientsQuery,
  TopClientsResponse,
} from '@platform/domain';
import type { RoutesPlugin } from '../../lib/http.ts';
import { staffOf } from '../../lib/staff-scope.ts';
import { listAccountsAtRisk } from './accounts.ts';
import { readExposure, readTopClients } from './exposure.ts';
import { startNetHistory } from './exposure-history.ts';
import { watchLimitWarnings } from './limit-warnings.ts';
import { followLimitChanges, listLimits, responseOf, updateLimits } from './limits.ts';
import { readRealised } from './realised.ts';

/** The house's risk desk: admins see every wallet, managers their customers'. */
const adminManager = { access: [1, 2] } as const;
const adminOnly = { access: [1] } as const;
const tags = ['risk'];

export const riskRoutes: RoutesPlugin = async (app) => {
  const { ctx } = app;
  // Limits changed on another instance: read them again here. The net's history and the limit warnings follow the
  // engine this instance keeps.
  const detachBus = followLimitChanges(ctx);
  const stopHistory = startNetHistory(ctx);
  const stopWarnings = watchLimitWarnings(ctx);
  app.addHook('onClose', async () => {
    detachBus();
    stopHistory();
    stopWarnings();
  });

  app.get(
    '/admin/risk/accounts',
    { config: adminManager, schema: { tags, querystring: RiskAccountsQuery, response: { 200: RiskAccountsResponse } } },
    async (req) => listAccountsAtRisk(ctx, staffOf(req), req.query),
  );
  app.get(
    '/admin/risk/exposure',
    { config: adminManager, schema: { tags, querystring: ExposureQuery, response: { 200: ExposureResponse } } },
    async (req) => readExposure(ctx, staffOf(req), req.query),
  );
  app.get(
    '/admin/risk/top-clients',
    { config: adminManager, schema: { tags, querystring: TopClientsQuery, response: { 200: TopClientsResponse } } },
    async (req) => readTopClients(ctx, staffOf(req), req.query),
  );
  app.get(
    '/admin/risk/realised',
    { config: adminManager, schema: { tags, querystring: RealisedQuery, response: { 200: RealisedResponse } } },
    async (req) => readRealised(ctx, staffOf(req), req.query),
  );
  app.get(
    '/admin/risk/limits',
    { config: adminOnly, schema: { tags, response: { 200: RiskLimitsResponse } } },
    async () => listLimits(ctx.db),
  );
  app.put(
    '/admin/risk/limits',
    { config: adminOnly, schema: { tags, body: RiskLimitsUpdate, response: { 200: RiskLimitsResponse } } },
    async (req) => responseOf(await updateLimits(ctx, staffOf(req), req.body), 'Limits saved'),
  );
};
