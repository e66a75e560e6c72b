import {
  AdminTradeCloseRequest,
  ApprovalPendingResponse,
  AdminTradeListParams,
  AdminTradeListResponse,
  AdminTradeResponse,
  AdminTradeUpdateRequest,
  AdminTradeUserParams,
  IdParam,
  MessageResponse,
  PagedQuery,
} from '@platform/domain';
import { TRADE_CSV } from '../../lib/csv-columns.ts';
import { listOrCsv } from '../../lib/csv-export.ts';
import type { RoutesPlugin } from '../../lib/http.ts';
import { staffOf } from '../../lib/staff-scope.ts';
import { holdForApproval } from '../approvals/service.ts';
import { closeTrade, listTrades, updateTrade, voidTrade } from './service.ts';
import { attachTradesLive } from './live.ts';

/** Trades in the back office (spec §2 "Trades"): admins every customer's, managers their customers'. */
export const adminTradesRoutes: RoutesPlugin = async (app) => {
  const { ctx } = app;
  const access = { access: [1, 2] } as const;
  const tags = ['admin trades'];

  const detach = attachTradesLive(ctx);
  app.addHook('onClose', async () => {
    detach();
  });

  app.get(
    '/admin/trades/api/:type',
    {
      config: access,
      schema: {
        tags,
        params: AdminTradeListParams,
        querystring: PagedQuery,
        response: { 200: AdminTradeListResponse },
      },
    },
    async (req, reply) =>
      listOrCsv(
        reply,
        { ...req.query, search: undefined },
        (q) => listTrades(ctx, staffOf(req), req.params.type, q),
        { name: `trades-${req.params.type}`, columns: TRADE_CSV },
        { walk: true },
      ),
  );
  app.get(
    '/admin/trades/api/:type/:userId',
    {
      config: access,
      schema: {
        tags,
        params: AdminTradeUserParams,
        querystring: PagedQuery,
        response: { 200: AdminTradeListResponse },
      },
    },
    async (req, reply) =>
      listOrCsv(
        reply,
        { ...req.query, search: undefined },
        (q) => listTrades(ctx, staffOf(req), req.params.type, q, req.params.userId),
        { name: `trades-${req.params.userId}`, columns: TRADE_CSV },
        { walk: true },
      ),
  );
  app.post(
    '/admin/trades/close',
    { config: access, schema: { tags, body: AdminTradeCloseRequest, response: { 200: AdminTradeResponse } } },
    async (req) => ({
      message: 'Order closed successfully',
      trade: await closeTrade(ctx, staffOf(req), req.body.orderId, req.body.amount),
    }),
  );
  app.put(
    '/admin/trades/:id',
    {
      config: access,
      schema: {
        tags,
        params: IdParam,
        body: AdminTradeUpdateRequest,
        response: { 200: AdminTradeResponse, 202: ApprovalPendingResponse },
      },
    },
    async (req, reply) => {
      // A closed trade's correction that moves more than the four-eyes threshold waits for a second person (202).
      const held = await holdForApproval(ctx, staffOf(req), { kind: 'trade_edit', id: req.params.id, input: req.body });
      if (held) return reply.status(202).send(held);
      return {
        message: 'Order updated successfully',
        trade: await updateTrade(ctx, staffOf(req), req.params.id, req.body),
      };
    },
  );
  app.delete(
    '/admin/trades/:id',
    {
      config: access,
      schema: { tags, params: IdParam, response: { 200: MessageResponse, 202: ApprovalPendingResponse } },
    },
    async (req, reply) => {
      const held = await holdForApproval(ctx, staffOf(req), { kind: 'trade_void', id: req.params.id });
      if (held) return reply.status(202).send(held);
      await voidTrade(ctx, staffOf(req), req.params.id);
      return { message: 'Order deleted successfully' };
    },
  );
};
