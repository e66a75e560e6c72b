import { z } from 'zod';
import { Candle, CandlesQuery, InstrumentDto, MarketStatus } from '@platform/domain';
import type { RoutesPlugin } from '../lib/http.ts';
import { candlesOf, listInstruments } from './service.ts';

const tags = ['market'];

/** Instruments with live quotes, market status and chart candles. Live updates arrive over Socket.IO. */
export const marketRoutes: RoutesPlugin = async (app) => {
  const { market } = app.ctx;

  app.get(
    '/dashboard/instruments',
    { config: { access: 'user' }, schema: { tags, response: { 200: z.array(InstrumentDto) } } },
    async () => listInstruments(market),
  );

  app.get(
    '/dashboard/market-status',
    { config: { access: 'user' }, schema: { tags, response: { 200: MarketStatus } } },
    async () => market.status(),
  );

  app.get(
    '/market/candles',
    { config: { access: 'user' }, schema: { tags, querystring: CandlesQuery, response: { 200: z.array(Candle) } } },
    async (req) => candlesOf(market, req.query),
  );
};
