import {
  ApprovalPendingResponse,
  DeclineRequest,
  IdParam,
  MessageResponse,
  MoneyHistoryQuery,
  MoneyHistoryResponse,
  UserIdParam,
  WithdrawFeesResponse,
  WithdrawRequest,
  WithdrawSettingsRequest,
  WithdrawSettingsResponse,
} from '@platform/domain';
import { and, eq } from 'drizzle-orm';
import { withdrawals } from '../../db/schema.ts';
import { authOf, type RoutesPlugin } from '../../lib/http.ts';
import { staffOf } from '../../lib/staff-scope.ts';
import { holdForApproval } from '../approvals/service.ts';
import { requireRecentAuth } from '../security/service.ts';
import {
  pendingWithdrawals,
  requestWithdrawal,
  reviewWithdrawal,
  updateWithdrawSettings,
  withdrawFees,
  withdrawalPage,
  withdrawalScope,
  withdrawalsOfUser,
} from './service.ts';
import { listOrCsv } from '../../lib/csv-export.ts';
import { MONEY_RECORD_CSV } from '../../lib/csv-columns.ts';

// Partners (affiliates) withdraw their commission wallets through the same flow (issue 24).
const customer = { access: [3, 4] } as const;
const moneyStaff = { access: [1, 2] } as const;
const adminOnly = { access: [1] } as const;

/** Client withdrawals (client-area §2 Withdraws) and the staff's pending list, history and settings (back-office §2). */
export const withdrawalsRoutes: RoutesPlugin = async (app) => {
  const ctx = app.ctx;

  app.get(
    '/withdraws/fees',
    { config: customer, schema: { tags: ['withdraws'], response: { 200: WithdrawFeesResponse } } },
    async () => withdrawFees(ctx.db),
  );

  app.post(
    '/withdraws/bank',
    { config: customer, schema: { tags: ['withdraws'], body: WithdrawRequest, response: { 200: MessageResponse } } },
    async (req) => {
      const auth = authOf(req);
      // A session older than 15 minutes gives the password again first (401 with reauth: true).
      await requireRecentAuth(ctx.db, auth.sessionId);
      return { message: await requestWithdrawal(ctx, auth.user, req.body, auth.impersonatorId !== null) };
    },
  );

  app.get(
    '/withdraws/history',
    {
      config: customer,
      schema: { tags: ['withdraws'], querystring: MoneyHistoryQuery, response: { 200: MoneyHistoryResponse } },
    },
    async (req) => withdrawalPage(ctx.db, withdrawalsOfUser(authOf(req).user.id), { ...req.query, search: undefined }),
  );

  app.get(
    '/admin/withdraws/api/pending',
    {
      config: moneyStaff,
      schema: { tags: ['withdraws'], querystring: MoneyHistoryQuery, response: { 200: MoneyHistoryResponse } },
    },
    async (req, reply) =>
      listOrCsv(
        reply,
        req.query,
        (q) => withdrawalPage(ctx.db, and(withdrawalScope(staffOf(req)), pendingWithdrawals), q),
        { name: 'withdrawals-pending', columns: MONEY_RECORD_CSV },
      ),
  );

  app.get(
    '/admin/withdraws/api/history',
    {
      config: moneyStaff,
      schema: { tags: ['withdraws'], querystring: MoneyHistoryQuery, response: { 200: MoneyHistoryResponse } },
    },
    async (req, reply) =>
      listOrCsv(
        reply,
        { ...req.query, search: undefined },
        (q) => withdrawalPage(ctx.db, withdrawalScope(staffOf(req)), q),
        { name: 'withdrawals', columns: MONEY_RECORD_CSV },
      ),
  );

  app.get(
    '/admin/withdraws/api/history/:userId',
    {
      config: moneyStaff,
      schema: {
        tags: ['withdraws'],
        params: UserIdParam,
        querystring: MoneyHistoryQuery,
        response: { 200: MoneyHistoryResponse },
      },
    },
    async (req) =>
      withdrawalPage(ctx.db, and(withdrawalScope(staffOf(req)), eq(withdrawals.userId, req.params.userId)), {
        ...req.query,
        search: undefined,
      }),
  );

  app.post(
    '/admin/withdraws/:id/approve',
    {
      config: moneyStaff,
      schema: {
        tags: ['withdraws'],
        params: IdParam,
        response: { 200: MessageResponse, 202: ApprovalPendingResponse },
      },
    },
    async (req, reply) => {
      // Above the four-eyes threshold the payout waits for a second person (202).
      const held = await holdForApproval(ctx, staffOf(req), { kind: 'withdrawal', id: req.params.id });
      if (held) return reply.status(202).send(held);
      await reviewWithdrawal(ctx, staffOf(req), req.params.id, 'approved');
      return { message: 'Withdraw approved successfully' };
    },
  );

  app.post(
    '/admin/withdraws/:id/decline',
    {
      config: moneyStaff,
      schema: {
        tags: ['withdraws'],
        params: IdParam,
        body: DeclineRequest.nullish(),
        response: { 200: MessageResponse },
      },
    },
    async (req) => {
      await reviewWithdrawal(ctx, staffOf(req), req.params.id, 'declined', req.body?.declineReason ?? null);
      return { message: 'Withdraw declined successfully' };
    },
  );

  app.get(
    '/admin/withdraws/settings',
    { config: adminOnly, schema: { tags: ['withdraws'], response: { 200: WithdrawSettingsResponse } } },
    async () => {
      const f = await withdrawFees(ctx.db);
      return { feePercentage: f.percentage, feeFixed: f.fixed };
    },
  );

  app.post(
    '/admin/withdraws/settings',
    {
      config: adminOnly,
      schema: { tags: ['withdraws'], body: WithdrawSettingsRequest, response: { 200: MessageResponse } },
    },
    async (req) => {
      await updateWithdrawSettings(ctx, staffOf(req), req.body);
      return { message: 'Withdraw settings updated successfully' };
    },
  );
};
