import {
  ChartSettings,
  DrawingCreateRequest,
  DrawingResponse,
  DrawingShape,
  DrawingsQuery,
  DrawingsResponse,
  IdParam,
  MessageResponse,
} from '@platform/domain';
import { authOf, type RoutesPlugin } from '../../lib/http.ts';
import {
  chartSettingsOf,
  createDrawing,
  deleteDrawing,
  listDrawings,
  saveChartSettings,
  updateDrawing,
} from './service.ts';

const tags = ['chart'];
/** Everyone signed in has the trading dashboard and its chart, staff included; each sees only their own. */
const access = 'user';

/** The trader's chart: drawings per instrument and the indicators, kept on the server so they follow the trader. */
export const chartRoutes: RoutesPlugin = async (app) => {
  const { db, market } = app.ctx;

  app.get(
    '/dashboard/chart/drawings',
    { config: { access }, schema: { tags, querystring: DrawingsQuery, response: { 200: DrawingsResponse } } },
    async (req) => ({ data: await listDrawings(db, market, authOf(req).user.id, req.query.symbol) }),
  );

  app.post(
    '/dashboard/chart/drawings',
    { config: { access }, schema: { tags, body: DrawingCreateRequest, response: { 201: DrawingResponse } } },
    async (req, reply) => {
      const drawing = await createDrawing(db, market, authOf(req).user.id, req.body);
      return reply.code(201).send({ message: 'Drawing saved', drawing });
    },
  );

  app.put(
    '/dashboard/chart/drawings/:id',
    { config: { access }, schema: { tags, params: IdParam, body: DrawingShape, response: { 200: DrawingResponse } } },
    async (req) => ({
      message: 'Drawing saved',
      drawing: await updateDrawing(db, market, authOf(req).user.id, req.params.id, req.body),
    }),
  );

  app.delete(
    '/dashboard/chart/drawings/:id',
    { config: { access }, schema: { tags, params: IdParam, response: { 200: MessageResponse } } },
    async (req) => {
      await deleteDrawing(db, authOf(req).user.id, req.params.id);
      return { message: 'Drawing deleted' };
    },
  );

  app.get(
    '/dashboard/chart/settings',
    { config: { access }, schema: { tags, response: { 200: ChartSettings } } },
    async (req) => chartSettingsOf(db, authOf(req).user.id),
  );

  app.put(
    '/dashboard/chart/settings',
    { config: { access }, schema: { tags, body: ChartSettings, response: { 200: ChartSettings } } },
    async (req) => saveChartSettings(db, authOf(req).user.id, req.body),
  );
};
