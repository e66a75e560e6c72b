import {
  AdminPendingListResponse,
  AdminPendingQuery,
  HistoryQuery,
  HistoryResponse,
  IdParam,
  MessageResponse,
  OcoRequest,
  OcoResponse,
  PendingCancelRequest,
  PendingOrderResponse,
  PendingOrdersResponse,
  PendingOrderUpdateRequest,
} from '@platform/domain';
import { authOf, type RoutesPlugin } from '../../../lib/http.ts';
import { customerScope, staffOf } from '../../../lib/staff-scope.ts';
import { cancelPending } from './cancel-pending.ts';
import { linkOco } from './link-oco.ts';
import { listHistory, listPending, listPendingForStaff } from './list-pending.ts';
import { modifyPending } from './modify-pending.ts';
import { pendingDto } from './pending-dto.ts';
import { ownedBy } from './pending-lock.ts';
import { pendingOrders } from '../../../db/schema.ts';
import type { PendingRow } from './hooks.ts';

const tags = ['trading'];

/** Pending orders of the client area (list, modify, cancel, OCO, history) and the back office's Pending tab. */
export const pendingRoutes: RoutesPlugin = async (app) => {
  const { ctx } = app;
  const dto = (r: PendingRow) => pendingDto(ctx.market.instruments, r);

  app.get(
    '/dashboard/pending-orders',
    { config: { access: 'user' }, schema: { tags, response: { 200: PendingOrdersResponse } } },
    async (req) => listPending(ctx.db, ctx.market.instruments, authOf(req).user.id),
  );

  app.put(
    '/dashboard/pending-orders/:id',
    {
      config: { access: [3] },
      schema: { tags, params: IdParam, body: PendingOrderUpdateRequest, response: { 200: PendingOrderResponse } },
    },
    async (req) => {
      const row = await modifyPending(ctx, req.params.id, ownedBy(authOf(req).user.id), req.body);
      return { message: 'Order Modified Successfully', ...dto(row) };
    },
  );

  app.delete(
    '/dashboard/pending-orders/:id',
    { config: { access: [3] }, schema: { tags, params: IdParam, response: { 200: PendingOrderResponse } } },
    async (req) => {
      const userId = authOf(req).user.id;
      const [row] = await cancelPending(ctx, req.params.id, ownedBy(userId), { userId });
      return { message: 'Order Cancelled Successfully', ...dto(row) };
    },
  );

  app.post(
    '/dashboard/pending-orders/oco',
    { config: { access: [3] }, schema: { tags, body: OcoRequest, response: { 200: OcoResponse } } },
    async (req) => {
      const [a, b] = req.body.ids;
      const rows = await linkOco(ctx, authOf(req).user.id, [a, b]);
      return { message: 'Orders Linked Successfully', data: rows.map(dto) };
    },
  );

  app.get(
    '/dashboard/orders/history',
    { config: { access: 'user' }, schema: { tags, querystring: HistoryQuery, response: { 200: HistoryResponse } } },
    async (req) => listHistory(ctx.db, ctx.market.instruments, authOf(req).user.id, req.query),
  );

  const staffAccess = { access: [1, 2] } as const;
  const staffTags = ['admin trades'];

  app.get(
    '/admin/pending-orders',
    {
      config: staffAccess,
      schema: { tags: staffTags, querystring: AdminPendingQuery, response: { 200: AdminPendingListResponse } },
    },
    async (req) => listPendingForStaff(ctx.db, ctx.market.instruments, staffOf(req), req.query),
  );

  app.put(
    '/admin/pending-orders/:id',
    {
      config: staffAccess,
      schema: {
        tags: staffTags,
        params: IdParam,
        body: PendingOrderUpdateRequest,
        response: { 200: PendingOrderResponse },
      },
    },
    async (req) => {
      const staff = staffOf(req);
      const row = await modifyPending(ctx, req.params.id, customerScope(staff, pendingOrders.userId), req.body, staff);
      return { message: 'Order Modified Successfully', ...dto(row) };
    },
  );

  app.post(
    '/admin/pending-orders/:id/cancel',
    {
      config: staffAccess,
      schema: { tags: staffTags, params: IdParam, body: PendingCancelRequest, response: { 200: MessageResponse } },
    },
    async (req) => {
      const staff = staffOf(req);
      await cancelPending(ctx, req.params.id, customerScope(staff, pendingOrders.userId), {
        userId: staff.id,
        staff,
        reason: req.body.reason,
      });
      return { message: 'Order Cancelled Successfully' };
    },
  );
};
