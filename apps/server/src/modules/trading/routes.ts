import { z } from 'zod';
import {
  CategorySchema,
  FavoriteDto,
  FavoriteRequest,
  IdParam,
  LotStateResponse,
  MessageResponse,
  OrderCloseRequest,
  OrderCreateRequest,
  OrderResponse,
  OrdersQuery,
  OrdersResponse,
  OrderUpdateRequest,
  PendingOrderResponse,
  RateResponse,
  RatesQuery,
} from '@platform/domain';
import { authOf, type RoutesPlugin } from '../../lib/http.ts';
import { closeOrder } from './close-order.ts';
import { listOrders } from './list-orders.ts';
import { updateOrderLevels } from './modify-order.ts';
import { orderDto } from './order-dto.ts';
import { closePartOfOrder } from './partial-close.ts';
import { placeOrder } from './place-order.ts';
import { placePending } from './pending/place-pending.ts';
import { pendingDto } from './pending/pending-dto.ts';
import { pendingRoutes } from './pending/routes.ts';
import { addFavorite, conversionRate, listFavorites, lotState, removeFavorite } from './market-info.service.ts';

const tags = ['trading'];

/** Client-area spec §7: orders, favourites, conversion rates and lot modes of the trading dashboard. */
export const tradingRoutes: RoutesPlugin = async (app) => {
  const { ctx } = app;
  await app.register(pendingRoutes);

  app.get(
    '/dashboard/orders',
    { config: { access: 'user' }, schema: { tags, querystring: OrdersQuery, response: { 200: OrdersResponse } } },
    async (req) => listOrders(ctx.db, authOf(req).user.id, req.query),
  );

  app.post(
    '/dashboard/orders',
    {
      config: { access: [3] },
      schema: {
        tags,
        body: OrderCreateRequest,
        response: { 200: OrderResponse, 201: PendingOrderResponse },
      },
    },
    async (req, reply) => {
      const userId = authOf(req).user.id;
      if (req.body.orderType !== 'market') {
        const row = await placePending(ctx, userId, req.body);
        return reply
          .code(201)
          .send({ message: 'Order Placed Successfully', ...pendingDto(ctx.market.instruments, row) });
      }
      const order = await placeOrder(ctx, userId, req.body);
      return { message: 'Order Placed Successfully', order: orderDto(order) };
    },
  );

  app.post(
    '/dashboard/orders/close',
    { config: { access: [3] }, schema: { tags, body: OrderCloseRequest, response: { 200: OrderResponse } } },
    async (req) => {
      const auth = authOf(req);
      const target = {
        orderId: req.body.orderId,
        ownerId: auth.user.id,
        actorId: auth.user.id,
        reason: 'manual' as const,
      };
      if (req.body.amount !== undefined) {
        // A partial close answers the closed part (a deal of its own); the whole amount is an ordinary close.
        const { deal, position } = await closePartOfOrder(ctx, { ...target, amount: req.body.amount });
        const message = position ? 'Part of the position closed' : 'Order Closed Successfully';
        return { message, order: orderDto(deal) };
      }
      const order = await closeOrder(ctx, target);
      return { message: 'Order Closed Successfully', order: orderDto(order) };
    },
  );

  app.put(
    '/dashboard/orders/:id',
    {
      config: { access: [3] },
      schema: { tags, params: IdParam, body: OrderUpdateRequest, response: { 200: OrderResponse } },
    },
    async (req) => {
      const order = await updateOrderLevels(ctx, authOf(req).user.id, req.params.id, req.body);
      const { trailing, loss } = req.body;
      const message =
        trailing !== undefined
          ? trailing
            ? 'Trailing Stop Set Successfully'
            : 'Trailing Stop Removed'
          : loss !== undefined
            ? 'Stop Loss Set Successfully'
            : 'Take Profit Set Successfully';
      return { message, order: orderDto(order) };
    },
  );

  app.get(
    '/dashboard/get-favorite',
    { config: { access: 'user' }, schema: { tags, response: { 200: z.array(FavoriteDto) } } },
    async (req) => listFavorites(ctx.db, authOf(req).user.id),
  );

  app.post(
    '/dashboard/add-to-favorite',
    { config: { access: 'user' }, schema: { tags, body: FavoriteRequest, response: { 200: MessageResponse } } },
    async (req) => {
      await addFavorite(ctx, authOf(req).user.id, req.body.id);
      return { message: 'Added to favorites' };
    },
  );

  app.post(
    '/dashboard/remove-from-favorite',
    { config: { access: 'user' }, schema: { tags, body: FavoriteRequest, response: { 200: MessageResponse } } },
    async (req) => {
      await removeFavorite(ctx.db, authOf(req).user.id, req.body.id);
      return { message: 'Removed from favorites' };
    },
  );

  app.get(
    '/dashboard/rates',
    { config: { access: 'user' }, schema: { tags, querystring: RatesQuery, response: { 200: RateResponse } } },
    async (req) => conversionRate(ctx, authOf(req).user.id, req.query.quote),
  );

  app.get(
    '/dashboard/lot-state/:category',
    {
      config: { access: 'user' },
      schema: {
        tags,
        params: z.object({ category: CategorySchema }),
        querystring: z.object({ instrument: z.string().trim().min(1).max(40).optional() }),
        response: { 200: LotStateResponse },
      },
    },
    async (req) => lotState(ctx, req.params.category, req.query.instrument),
  );
};
