import {
  ApprovalPendingResponse,
  BankDepositRequest,
  DeclineRequest,
  DepositApproveRequest,
  DepositCreatedResponse,
  DepositDetailResponse,
  DepositRequest,
  GatewayOptionsResponse,
  IdParam,
  MessageResponse,
  MoneyHistoryQuery,
  MoneyHistoryResponse,
  UserIdParam,
} from '@platform/domain';
import { and, eq } from 'drizzle-orm';
import { deposits } from '../../db/schema.ts';
import { authOf, type RoutesPlugin } from '../../lib/http.ts';
import { parseFields, readMultipart } from '../../lib/multipart.ts';
import { customerScope, staffOf } from '../../lib/staff-scope.ts';
import { holdForApproval } from '../approvals/service.ts';
import { depositOptions } from '../gateways/service.ts';
import { depositPage } from './records.ts';
import { reviewDeposit } from './review.ts';
import { createDeposit, depositDetail, submitBankTransfer } from './service.ts';
import { listOrCsv } from '../../lib/csv-export.ts';
import { MONEY_RECORD_CSV } from '../../lib/csv-columns.ts';

const customer = { access: [3] } as const;
const moneyStaff = { access: [1, 2] } as const;

/** Client deposits (client-area §2 Deposits) and the staff's deposit history (back-office §2). */
export const depositsRoutes: RoutesPlugin = async (app) => {
  const ctx = app.ctx;

  app.get(
    '/deposits/gateways',
    { config: customer, schema: { tags: ['deposits'], response: { 200: GatewayOptionsResponse } } },
    async () => depositOptions(ctx),
  );

  app.post(
    '/deposits',
    {
      config: customer,
      schema: { tags: ['deposits'], body: DepositRequest, response: { 200: DepositCreatedResponse } },
    },
    async (req) => createDeposit(ctx, authOf(req).user, req.body),
  );

  app.get(
    '/deposits/history',
    {
      config: customer,
      schema: { tags: ['deposits'], querystring: MoneyHistoryQuery, response: { 200: MoneyHistoryResponse } },
    },
    async (req) => depositPage(ctx.db, eq(deposits.userId, authOf(req).user.id), { ...req.query, search: undefined }),
  );

  app.get(
    '/deposits/:id',
    { config: customer, schema: { tags: ['deposits'], params: IdParam, response: { 200: DepositDetailResponse } } },
    async (req) => depositDetail(ctx, authOf(req).user.id, req.params.id),
  );

  app.put(
    '/deposits/bank/:id',
    {
      config: customer,
      schema: {
        tags: ['deposits'],
        params: IdParam,
        consumes: ['multipart/form-data'],
        response: { 200: MessageResponse },
      },
    },
    async (req) => {
      const form = await readMultipart(req, ['proof']);
      const input = parseFields(BankDepositRequest, form.fields);
      const user = authOf(req).user;
      // The transfer must come from the client's own account: the name is theirs, whatever the form says.
      return {
        message: await submitBankTransfer(
          ctx,
          user,
          req.params.id,
          { ...input, account_name: user.fullName.slice(0, 120) },
          form.files.proof,
        ),
      };
    },
  );

  app.get(
    '/admin/deposits/api/history',
    {
      config: moneyStaff,
      schema: { tags: ['deposits'], querystring: MoneyHistoryQuery, response: { 200: MoneyHistoryResponse } },
    },
    async (req, reply) =>
      listOrCsv(reply, req.query, (q) => depositPage(ctx.db, customerScope(staffOf(req), deposits.userId), q), {
        name: 'deposits',
        columns: MONEY_RECORD_CSV,
      }),
  );

  app.get(
    '/admin/deposits/api/history/:userId',
    {
      config: moneyStaff,
      schema: {
        tags: ['deposits'],
        params: UserIdParam,
        querystring: MoneyHistoryQuery,
        response: { 200: MoneyHistoryResponse },
      },
    },
    async (req) =>
      depositPage(ctx.db, and(customerScope(staffOf(req), deposits.userId), eq(deposits.userId, req.params.userId)), {
        ...req.query,
        search: undefined,
      }),
  );

  app.post(
    '/admin/deposits/:id/approve',
    {
      config: moneyStaff,
      schema: {
        tags: ['deposits'],
        params: IdParam,
        body: DepositApproveRequest.nullish(),
        response: { 200: MessageResponse, 202: ApprovalPendingResponse },
      },
    },
    async (req, reply) => {
      // Above the four-eyes threshold the credit waits for a second person (202).
      const held = await holdForApproval(ctx, staffOf(req), {
        kind: 'deposit',
        id: req.params.id,
        ...(req.body?.overrideReason ? { overrideReason: req.body.overrideReason } : {}),
      });
      if (held) return reply.status(202).send(held);
      await reviewDeposit(ctx, staffOf(req), req.params.id, 'approved', null, req.body?.overrideReason);
      return { message: 'Deposit approved successfully' };
    },
  );

  app.post(
    '/admin/deposits/:id/decline',
    {
      config: moneyStaff,
      schema: {
        tags: ['deposits'],
        params: IdParam,
        body: DeclineRequest.nullish(),
        response: { 200: MessageResponse },
      },
    },
    async (req) => {
      await reviewDeposit(ctx, staffOf(req), req.params.id, 'declined', req.body?.declineReason ?? null);
      return { message: 'Deposit declined successfully' };
    },
  );
};
