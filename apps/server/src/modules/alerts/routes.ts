import { AlertRequest, AlertResponse, AlertsResponse, IdParam, MessageResponse } from '@platform/domain';
import { authOf, type RoutesPlugin } from '../../lib/http.ts';
import { alertDto, createAlert, deleteAlert, listAlerts, updateAlert } from './service.ts';

const tags = ['alerts'];
/** Price alerts are a client's own (role 3), like the other trading calls of the dashboard. */
const access = [3] as const;

/** Price alerts: "bid/ask crosses X" on an instrument, fired once by the server (modules/alerts/watch.ts). */
export const alertsRoutes: RoutesPlugin = async (app) => {
  const { ctx } = app;

  app.get(
    '/dashboard/alerts',
    { config: { access }, schema: { tags, response: { 200: AlertsResponse } } },
    async (req) => ({ data: await listAlerts(ctx.db, authOf(req).user.id) }),
  );

  app.post(
    '/dashboard/alerts',
    { config: { access }, schema: { tags, body: AlertRequest, response: { 201: AlertResponse } } },
    async (req, reply) => {
      const alert = await createAlert(ctx, authOf(req).user.id, req.body);
      return reply.code(201).send({ message: 'Alert Created Successfully', alert: alertDto(alert) });
    },
  );

  app.put(
    '/dashboard/alerts/:id',
    { config: { access }, schema: { tags, params: IdParam, body: AlertRequest, response: { 200: AlertResponse } } },
    async (req) => {
      const alert = await updateAlert(ctx, authOf(req).user.id, req.params.id, req.body);
      return { message: 'Alert Updated Successfully', alert: alertDto(alert) };
    },
  );

  app.delete(
    '/dashboard/alerts/:id',
    { config: { access }, schema: { tags, params: IdParam, response: { 200: MessageResponse } } },
    async (req) => {
      await deleteAlert(ctx, authOf(req).user.id, req.params.id);
      return { message: 'Alert Deleted Successfully' };
    },
  );
};
