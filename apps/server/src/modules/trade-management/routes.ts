import type { FastifyRequest } from 'fastify';
import {
  AdminInstrumentListResponse,
  AdminInstrumentResponse,
  AdminInstrumentsQuery,
  ApiSettingParam,
  ApiSettingUpdateRequest,
  ApiSettingsResponse,
  IdParam,
  InstrumentRequest,
  InstrumentTypeParam,
  LotModesRequest,
  LotSelectorRequest,
  LotSettingsResponse,
  MessageResponse,
  SpreadsRequest,
  SpreadsResponse,
  SwapSettingsRequest,
  SwapSettingsResponse,
} from '@platform/domain';
import { authOf, type RoutesPlugin } from '../../lib/http.ts';
import { listApiSettings, updateApiSetting } from './apis.service.ts';
import type { Actor, SyncLog } from './market-sync.ts';
import { getSpreads, updateSpreads } from './spreads.service.ts';
import { getLotSettings, updateLotModes, updateLotSelector } from './lots.service.ts';
import { getSwapSettings, updateSwapSettings } from './swaps.service.ts';
import { createInstrument, deleteInstrument, listInstruments, updateInstrument } from './instruments.service.ts';
import { listOrCsv } from '../../lib/csv-export.ts';
import { INSTRUMENT_CSV } from '../../lib/csv-columns.ts';

/** Trade Management (Instruments, Spread Settings, Lot Settings, APIs) is an admin-only section (back-office spec §2). */
const adminOnly = { access: [1] } as const;

const actorOf = (req: FastifyRequest): Actor => ({ id: authOf(req).user.id, ip: req.ip });
const logOf =
  (req: FastifyRequest): SyncLog =>
  (msg, err) =>
    req.log.error({ err }, msg);

export const tradeManagementRoutes: RoutesPlugin = async (app) => {
  const ctx = app.ctx;

  // Trade APIs: the external data-provider settings records.
  app.get(
    '/admin/apis',
    { config: adminOnly, schema: { tags: ['trade apis'], response: { 200: ApiSettingsResponse } } },
    async () => listApiSettings(ctx.db),
  );

  app.put(
    '/admin/apis/:key',
    {
      config: adminOnly,
      schema: {
        tags: ['trade apis'],
        params: ApiSettingParam,
        body: ApiSettingUpdateRequest,
        response: { 200: MessageResponse },
      },
    },
    async (req) => ({ message: await updateApiSetting(ctx, actorOf(req), req.params.key, req.body, logOf(req)) }),
  );

  // Spread Settings: spread_forex ... spread_stock (value1).
  app.get(
    '/admin/spreads',
    { config: adminOnly, schema: { tags: ['spread settings'], response: { 200: SpreadsResponse } } },
    async () => getSpreads(ctx.db),
  );

  app.post(
    '/admin/spreads',
    {
      config: adminOnly,
      schema: { tags: ['spread settings'], body: SpreadsRequest, response: { 200: MessageResponse } },
    },
    async (req) => {
      await updateSpreads(ctx, actorOf(req), req.body);
      return { message: 'Spreads updated successfully' };
    },
  );

  // Swap Settings: swap_{category} (value1 the triple-swap weekday, value2 whether weekends are charged).
  app.get(
    '/admin/swaps',
    { config: adminOnly, schema: { tags: ['swap settings'], response: { 200: SwapSettingsResponse } } },
    async () => getSwapSettings(ctx.db),
  );

  app.post(
    '/admin/swaps',
    {
      config: adminOnly,
      schema: {
        tags: ['swap settings'],
        body: SwapSettingsRequest,
        response: { 200: SwapSettingsResponse.extend({ message: MessageResponse.shape.message }) },
      },
    },
    async (req) => ({
      message: 'Swap settings updated successfully',
      ...(await updateSwapSettings(ctx, actorOf(req), req.body)),
    }),
  );

  // Lot Settings: lot_{category} modes and the lotSelector presets.
  app.get(
    '/admin/lots',
    { config: adminOnly, schema: { tags: ['lot settings'], response: { 200: LotSettingsResponse } } },
    async () => getLotSettings(ctx.db),
  );

  app.post(
    '/admin/lots',
    {
      config: adminOnly,
      schema: { tags: ['lot settings'], body: LotModesRequest, response: { 200: MessageResponse } },
    },
    async (req) => {
      await updateLotModes(ctx, actorOf(req), req.body);
      return { message: 'Lots updated successfully' };
    },
  );

  app.post(
    '/admin/lotSelector',
    {
      config: adminOnly,
      schema: { tags: ['lot settings'], body: LotSelectorRequest, response: { 200: MessageResponse } },
    },
    async (req) => {
      await updateLotSelector(ctx, actorOf(req), req.body);
      return { message: 'Lots updated successfully' };
    },
  );

  // Instruments, one list per category (the type in the path).
  app.get(
    '/admin/instruments/api/:type',
    {
      config: adminOnly,
      schema: {
        tags: ['instruments'],
        params: InstrumentTypeParam,
        querystring: AdminInstrumentsQuery,
        response: { 200: AdminInstrumentListResponse },
      },
    },
    async (req, reply) =>
      listOrCsv(reply, req.query, (q) => listInstruments(ctx, req.params.type, q), {
        name: `instruments-${req.params.type}`,
        columns: INSTRUMENT_CSV,
      }),
  );

  app.post(
    '/admin/instruments',
    {
      config: adminOnly,
      schema: { tags: ['instruments'], body: InstrumentRequest, response: { 201: AdminInstrumentResponse } },
    },
    async (req, reply) => {
      const instrument = await createInstrument(ctx, actorOf(req), req.body, logOf(req));
      return reply.status(201).send({ message: 'Instrument added successfully', instrument });
    },
  );

  app.put(
    '/admin/instruments/:id',
    {
      config: adminOnly,
      schema: {
        tags: ['instruments'],
        params: IdParam,
        body: InstrumentRequest,
        response: { 200: AdminInstrumentResponse },
      },
    },
    async (req) => ({
      message: 'Instrument updated successfully',
      instrument: await updateInstrument(ctx, actorOf(req), req.params.id, req.body, logOf(req)),
    }),
  );

  app.delete(
    '/admin/instruments/:id',
    { config: adminOnly, schema: { tags: ['instruments'], params: IdParam, response: { 200: MessageResponse } } },
    async (req) => {
      await deleteInstrument(ctx, actorOf(req), req.params.id, logOf(req));
      return { message: 'Instrument deleted successfully' };
    },
  );
};
