import {
  IdParam,
  MessageResponse,
  PlanIdParam,
  PricingListQuery,
  PricingPlanListResponse,
  PricingPlanRequest,
  PlanSubscribeRequest,
} from '@platform/domain';
import { authOf, type RoutesPlugin } from '../../lib/http.ts';
import { staffOf } from '../../lib/staff-scope.ts';
import { createPlan, deletePlan, listPlans, subscribe, updatePlan } from './service.ts';

const adminOnly = { access: [1] } as const;

/** Pricing plans: the list every signed-in user reads, the client's subscription and the admins' plan editor. */
export const pricingRoutes: RoutesPlugin = async (app) => {
  const ctx = app.ctx;

  app.get(
    '/dashboard/pricing',
    {
      config: { access: 'user' },
      schema: { tags: ['pricing'], querystring: PricingListQuery, response: { 200: PricingPlanListResponse } },
    },
    async (req) => listPlans(ctx, authOf(req).user, req.query),
  );

  app.post(
    '/dashboard/pricing/subscribe/:planId',
    {
      config: { access: [3] },
      schema: {
        tags: ['pricing'],
        params: PlanIdParam,
        body: PlanSubscribeRequest,
        response: { 200: MessageResponse },
      },
    },
    async (req) => ({ message: await subscribe(ctx, authOf(req).user.id, req.params.planId, req.body) }),
  );

  app.post(
    '/admin/pricing',
    { config: adminOnly, schema: { tags: ['pricing'], body: PricingPlanRequest, response: { 200: MessageResponse } } },
    async (req) => {
      await createPlan(ctx, staffOf(req), req.body);
      return { message: 'Plan added successfully' };
    },
  );

  app.put(
    '/admin/pricing/:id',
    {
      config: adminOnly,
      schema: { tags: ['pricing'], params: IdParam, body: PricingPlanRequest, response: { 200: MessageResponse } },
    },
    async (req) => {
      await updatePlan(ctx, staffOf(req), req.params.id, req.body);
      return { message: 'Plan updated successfully' };
    },
  );

  app.delete(
    '/admin/pricing/:id',
    { config: adminOnly, schema: { tags: ['pricing'], params: IdParam, response: { 200: MessageResponse } } },
    async (req) => {
      await deletePlan(ctx, staffOf(req), req.params.id);
      return { message: 'Plan deleted successfully' };
    },
  );
};
