import {
  IdParam,
  MessageResponse,
  PartnerClientDto,
  PartnerClientRequest,
  PartnerClientResponse,
  PartnerClientsQuery,
  PartnerClientsResponse,
  PartnerCommissionsQuery,
  PartnerCommissionsResponse,
  PartnerCustomerParam,
  PartnerInviteRequest,
  PartnerLinkRequest,
  PartnerLinkResponse,
  PartnerMirrorQuery,
  PartnerMirrorResponse,
  PartnerPeriodQuery,
  PartnerPlanListResponse,
  PartnerPlanRequest,
  PartnerPlanResponse,
  PartnerReportQuery,
  PartnerReportResponse,
  PartnerSubpartnerDto,
  PartnerSubpartnersResponse,
  PartnerSummaryResponse,
  PartnerTreeResponse,
  PartnerUserParam,
} from '@platform/domain';
import { AppError } from '../../lib/errors.ts';
import type { RoutesPlugin } from '../../lib/http.ts';
import { staffOf } from '../../lib/staff-scope.ts';
import { assignClient } from './clients.ts';
import { sendCommissions, sendReportCsv } from './export.ts';
import { inviteSubPartner } from './invite.ts';
import { mirrorTrades } from './mirror-trades.ts';
import { createPlan, deletePlan, listPlans, updatePlan } from './plans.ts';
import {
  partnerClientsPage,
  partnerCommissionsPage,
  partnerSubpartners,
  partnerSummary,
  partnersReport,
  periodOf,
} from './reports.ts';
import { partnerTree, setPartnerLink } from './tree.ts';

const tags = ['partners'];
const admins = { access: [1] as [1] };
const partners = { access: [4] as [4] };

/**
 * Partners: commission plans, the tree and client assignment for admins; the partner portal's figures for
 * affiliates (role 4), each answering only about the caller's own clients and tree (anything else is 404).
 */
export const partnersRoutes: RoutesPlugin = async (app) => {
  const { db } = app.ctx;

  app.get(
    '/admin/partners/plans',
    { config: admins, schema: { tags, response: { 200: PartnerPlanListResponse } } },
    async () => ({ data: await listPlans(db) }),
  );
  app.post(
    '/admin/partners/plans',
    { config: admins, schema: { tags, body: PartnerPlanRequest, response: { 200: PartnerPlanResponse } } },
    async (req) => ({ message: 'Plan created', plan: await createPlan(db, staffOf(req), req.body) }),
  );
  app.put(
    '/admin/partners/plans/:id',
    {
      config: admins,
      schema: { tags, params: IdParam, body: PartnerPlanRequest, response: { 200: PartnerPlanResponse } },
    },
    async (req) => ({ message: 'Plan updated', plan: await updatePlan(db, staffOf(req), req.params.id, req.body) }),
  );
  app.delete(
    '/admin/partners/plans/:id',
    { config: admins, schema: { tags, params: IdParam, response: { 200: MessageResponse } } },
    async (req) => {
      const done = await deletePlan(db, staffOf(req), req.params.id);
      return {
        message: done === 'deleted' ? 'Plan deleted' : 'Plan archived: it has partners or commissions, which it keeps',
      };
    },
  );
  app.get(
    '/admin/partners/tree',
    { config: admins, schema: { tags, response: { 200: PartnerTreeResponse } } },
    async () => ({ data: await partnerTree(db) }),
  );
  app.get(
    '/admin/partners/report',
    { config: admins, schema: { tags, querystring: PartnerReportQuery, response: { 200: PartnerReportResponse } } },
    async (req, reply) => {
      const p = periodOf(req.query);
      const data = await partnersReport(db, p);
      if (req.query.format === 'csv') return sendReportCsv(reply, p, data);
      return { dateStart: p.dateStart, dateEnd: p.dateEnd, data };
    },
  );
  app.get(
    '/admin/partners/mirror-trades',
    { config: admins, schema: { tags, querystring: PartnerMirrorQuery, response: { 200: PartnerMirrorResponse } } },
    async (req) => {
      const p = periodOf(req.query);
      const windowSeconds = req.query.windowSeconds;
      return {
        dateStart: p.dateStart,
        dateEnd: p.dateEnd,
        windowSeconds,
        data: await mirrorTrades(db, p, windowSeconds),
      };
    },
  );
  app.put(
    '/admin/partners/clients/:customerId',
    {
      config: admins,
      schema: {
        tags,
        params: PartnerCustomerParam,
        body: PartnerClientRequest,
        response: { 200: PartnerClientResponse },
      },
    },
    async (req) => {
      await assignClient(db, staffOf(req), req.params.customerId, req.body);
      return {
        message: req.body.partnerId === null ? 'The client has no partner now' : 'Client assigned',
        customerId: req.params.customerId,
        partnerId: req.body.partnerId,
      };
    },
  );
  // A partner's clients and statement as admins read them (another user than a partner is 404).
  const partnerOrNotFound = async (userId: number) => {
    if (!(await partnerTree(db)).some((n) => n.userId === userId))
      throw new AppError('NOT_FOUND', 'Partner not found.');
  };
  app.get(
    '/admin/partners/:userId/clients',
    {
      config: admins,
      schema: {
        tags,
        params: PartnerUserParam,
        querystring: PartnerClientsQuery,
        response: { 200: PartnerClientsResponse },
      },
    },
    async (req) => {
      await partnerOrNotFound(req.params.userId);
      return partnerClientsPage(db, req.params.userId, req.query, 'admin');
    },
  );
  app.get(
    '/admin/partners/:userId/commissions',
    {
      config: admins,
      schema: {
        tags,
        params: PartnerUserParam,
        querystring: PartnerCommissionsQuery,
        response: { 200: PartnerCommissionsResponse },
      },
    },
    async (req, reply) => {
      await partnerOrNotFound(req.params.userId);
      const p = periodOf(req.query);
      if (req.query.format) return sendCommissions(db, reply, req.params.userId, p, req.query.format);
      return partnerCommissionsPage(db, req.params.userId, p, req.query);
    },
  );
  app.put(
    '/admin/partners/:userId',
    {
      config: admins,
      schema: { tags, params: PartnerUserParam, body: PartnerLinkRequest, response: { 200: PartnerLinkResponse } },
    },
    async (req) => ({
      message: 'Partner saved',
      partner: await setPartnerLink(db, staffOf(req), req.params.userId, req.body),
    }),
  );

  // The partner portal (role 4): the caller's own figures only.
  app.get(
    '/affiliate/partner/summary',
    { config: partners, schema: { tags, querystring: PartnerPeriodQuery, response: { 200: PartnerSummaryResponse } } },
    async (req) => partnerSummary(db, staffOf(req).id, periodOf(req.query)),
  );
  app.get(
    '/affiliate/partner/clients',
    { config: partners, schema: { tags, querystring: PartnerClientsQuery, response: { 200: PartnerClientsResponse } } },
    async (req) => partnerClientsPage(db, staffOf(req).id, req.query),
  );
  app.get(
    '/affiliate/partner/clients/:customerId',
    { config: partners, schema: { tags, params: PartnerCustomerParam, response: { 200: PartnerClientDto } } },
    async (req) => {
      // Looked up among the caller's own clients only: anyone else's is not found.
      const page = await partnerClientsPage(db, staffOf(req).id, { page: 1, limit: 100, only: req.params.customerId });
      const found = page.data[0];
      if (!found) throw new AppError('NOT_FOUND', 'Client not found.');
      return found;
    },
  );
  app.get(
    '/affiliate/partner/subpartners',
    { config: partners, schema: { tags, response: { 200: PartnerSubpartnersResponse } } },
    async (req) => ({ data: await partnerSubpartners(db, staffOf(req).id) }),
  );
  app.post(
    '/affiliate/partner/subpartners',
    { config: partners, schema: { tags, body: PartnerInviteRequest, response: { 200: MessageResponse } } },
    async (req) => {
      await inviteSubPartner(app.ctx, staffOf(req), req.body);
      return { message: `Invitation sent to ${req.body.email}` };
    },
  );
  app.get(
    '/affiliate/partner/subpartners/:userId',
    { config: partners, schema: { tags, params: PartnerUserParam, response: { 200: PartnerSubpartnerDto } } },
    async (req) => {
      const found = (await partnerSubpartners(db, staffOf(req).id)).find((s) => s.userId === req.params.userId);
      if (!found) throw new AppError('NOT_FOUND', 'Sub-partner not found.');
      return found;
    },
  );
  app.get(
    '/affiliate/partner/commissions',
    {
      config: partners,
      schema: {
        tags,
        querystring: PartnerCommissionsQuery,
        response: { 200: PartnerCommissionsResponse },
      },
    },
    async (req, reply) => {
      const partnerId = staffOf(req).id;
      const p = periodOf(req.query);
      if (req.query.format) return sendCommissions(db, reply, partnerId, p, req.query.format);
      return partnerCommissionsPage(db, partnerId, p, req.query);
    },
  );
};
