import {
  ApprovalDecisionResponse,
  ApprovalListQuery,
  ApprovalListResponse,
  ApprovalRejectRequest,
  ApprovalSettingsRequest,
  ApprovalSettingsResponse,
  IdParam,
} from '@platform/domain';
import type { RoutesPlugin } from '../../lib/http.ts';
import { staffOf } from '../../lib/staff-scope.ts';
import { approveRequest, listApprovals, rejectRequest } from './service.ts';
import { approvalSettingsResponse, updateApprovalSettings } from './settings.ts';

const tags = ['approvals'];
/** Admins decide every kind; managers the kinds they may do themselves, on their own customers (kinds.ts APPROVERS). */
const deciders = { access: [1, 2] } as const;
const adminOnly = { access: [1] } as const;

/** Four-eyes approvals (issue 27): thresholds, the requests waiting for a second person, approve and reject. */
export const approvalsRoutes: RoutesPlugin = async (app) => {
  const { ctx } = app;

  app.get(
    '/admin/approvals/settings',
    { config: adminOnly, schema: { tags, response: { 200: ApprovalSettingsResponse } } },
    async () => approvalSettingsResponse(ctx.db),
  );

  app.put(
    '/admin/approvals/settings',
    {
      config: adminOnly,
      schema: { tags, body: ApprovalSettingsRequest, response: { 200: ApprovalSettingsResponse } },
    },
    async (req) => {
      await updateApprovalSettings(ctx, staffOf(req), req.body);
      return approvalSettingsResponse(ctx.db);
    },
  );

  app.get(
    '/admin/approvals',
    { config: deciders, schema: { tags, querystring: ApprovalListQuery, response: { 200: ApprovalListResponse } } },
    async (req) => listApprovals(ctx.db, staffOf(req), req.query),
  );

  app.post(
    '/admin/approvals/:id/approve',
    { config: deciders, schema: { tags, params: IdParam, response: { 200: ApprovalDecisionResponse } } },
    async (req) => ({
      message: 'Approved: the action is done.',
      approval: await approveRequest(ctx, staffOf(req), req.params.id),
    }),
  );

  app.post(
    '/admin/approvals/:id/reject',
    {
      config: deciders,
      schema: { tags, params: IdParam, body: ApprovalRejectRequest, response: { 200: ApprovalDecisionResponse } },
    },
    async (req) => ({
      message: 'Rejected: nothing was changed.',
      approval: await rejectRequest(ctx, staffOf(req), req.params.id, req.body.reason),
    }),
  );
};
