import {
  IdParam,
  MessageResponse,
  PromoCodeGenerateResponse,
  PromoCodeRequest,
  PromoCodeResponse,
  TeamListQuery,
  TeamListResponse,
  TeamRequest,
} from '@platform/domain';
import type { RoutesPlugin } from '../../lib/http.ts';
import { staffOf } from '../../lib/staff-scope.ts';
import { currentPromoCode, generatePromoCode } from './promo-codes.ts';
import { createTeam, deleteTeam, listTeams, updateTeam } from './teams.ts';

/** CRM configuration: Teams (admins) and every staff member's own Promo Code (back-office §2, §6, §7). */
const tags = ['crm'];

export const crmConfigRoutes: RoutesPlugin = async (app) => {
  const { db } = app.ctx;

  app.get(
    '/admin/crm-config/teams/api',
    { config: { access: [1] }, schema: { tags, querystring: TeamListQuery, response: { 200: TeamListResponse } } },
    async (req) => listTeams(db, req.query),
  );
  app.post(
    '/admin/crm-config/teams',
    { config: { access: [1] }, schema: { tags, body: TeamRequest, response: { 201: MessageResponse } } },
    async (req, reply) => {
      await createTeam(db, staffOf(req), req.body);
      return reply.status(201).send({ message: 'Team added successfully' });
    },
  );
  app.put(
    '/admin/crm-config/teams/:id',
    {
      config: { access: [1] },
      schema: { tags, params: IdParam, body: TeamRequest, response: { 200: MessageResponse } },
    },
    async (req) => {
      await updateTeam(db, staffOf(req), req.params.id, req.body);
      return { message: 'Team updated successfully' };
    },
  );
  app.delete(
    '/admin/crm-config/teams/:id',
    { config: { access: [1] }, schema: { tags, params: IdParam, response: { 200: MessageResponse } } },
    async (req) => {
      await deleteTeam(db, staffOf(req), req.params.id);
      return { message: 'Team deleted successfully' };
    },
  );

  app.get(
    '/admin/promo-code',
    { config: { access: [1, 2, 4, 5, 6] }, schema: { tags, response: { 200: PromoCodeResponse } } },
    async (req) => currentPromoCode(db, staffOf(req)),
  );
  app.post(
    '/admin/promo-code',
    {
      config: { access: [1, 2, 4, 5, 6] },
      schema: { tags, body: PromoCodeRequest, response: { 201: PromoCodeGenerateResponse } },
    },
    async (req, reply) =>
      reply
        .status(201)
        .send({ message: 'Promo code generated successfully', ...(await generatePromoCode(db, staffOf(req))) }),
  );
};
