import { SimulatorPriceRequest, SimulatorPriceResponse } from '@platform/domain';
import { authOf, type RoutesPlugin } from '../../lib/http.ts';
import { deliverSimulatedQuote, isForwardedQuote, setSimulatedPrice } from './service.ts';

/** Simulated feed control: admins set an instrument's next quote (demonstrations to staff, tests that cross levels). */
export const simulatorRoutes: RoutesPlugin = async (app) => {
  const { ctx } = app;

  // Prices set on another instance: the leader ticks them (open market); every instance holds a closed market's.
  const detach = ctx.cluster.bus.subscribe('simulator', (m) => {
    if (isForwardedQuote(m)) deliverSimulatedQuote(ctx, m);
  });
  app.addHook('onClose', async () => {
    detach();
  });

  app.post(
    '/admin/simulator/price',
    {
      config: { access: [1] },
      schema: { tags: ['simulator'], body: SimulatorPriceRequest, response: { 200: SimulatorPriceResponse } },
    },
    async (req) =>
      setSimulatedPrice(ctx, { id: authOf(req).user.id, ip: req.ip }, req.body, (msg, err) =>
        req.log.error({ err }, msg),
      ),
  );
};
