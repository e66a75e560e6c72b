import client from 'prom-client';
import type { FastifyInstance } from 'fastify';

/**
 * Prometheus metrics of this process (prom-client): Node's own (CPU, memory, event-loop lag, GC) and the product's:
 * API latency per route, orders placed and closed, price ticks, connected clients. Defined once per process; several
 * apps in one process (tests) share them.
 */
export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });

export const httpDuration = new client.Histogram({
  name: 'http_request_duration_seconds',
  help: 'API answer time by route and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

export const ordersPlaced = new client.Counter({
  name: 'orders_placed_total',
  help: 'Orders filled, by instrument category',
  labelNames: ['category'] as const,
  registers: [registry],
});

export const ordersClosed = new client.Counter({
  name: 'orders_closed_total',
  help: 'Positions closed, by reason (manual, take_profit, stop_loss, stop_out, admin)',
  labelNames: ['reason'] as const,
  registers: [registry],
});

export const paymentCallbacksRefused = new client.Counter({
  name: 'payment_callbacks_refused_total',
  help: 'Payment provider callbacks refused (bad or missing signature, stale, malformed), by gateway kind; their bodies are not kept',
  labelNames: ['kind'] as const,
  registers: [registry],
});

export const priceTicks = new client.Counter({
  name: 'price_ticks_total',
  help: 'Quotes applied to the price book',
  registers: [registry],
});

/**
 * A gauge summed over sources registered by running parts (one per app in the process): each registration returns
 * the function that removes it.
 */
function summedGauge(name: string, help: string): (source: () => number) => () => void {
  const sources = new Set<() => number>();
  new client.Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      let n = 0;
      for (const count of sources) n += count();
      this.set(n);
    },
  });
  return (source) => {
    sources.add(source);
    return () => sources.delete(source);
  };
}

/** Counts a realtime server's open connections until the returned function is called. */
export const countClients = summedGauge('realtime_connected_clients', 'Open Socket.IO connections on this instance');

/** Counts the positions a risk engine follows until the returned function is called. */
export const countPositions = summedGauge(
  'risk_engine_positions',
  'Open positions the risk engine follows on this instance',
);

const queueSources = new Set<() => Promise<Record<string, number>>>();
new client.Gauge({
  name: 'jobs_waiting',
  help: 'Background jobs waiting or running, per queue (the queue is shared by every instance)',
  labelNames: ['queue'],
  registers: [registry],
  async collect() {
    this.reset();
    for (const depth of queueSources) for (const [queue, n] of Object.entries(await depth())) this.set({ queue }, n);
  },
});

/** Reports a job queue's depth until the returned function is called. */
export function watchJobQueue(depth: () => Promise<Record<string, number>>): () => void {
  queueSources.add(depth);
  return () => queueSources.delete(depth);
}

/** Times every API answer by its route pattern (never the raw URL: ids would explode the label set). */
export function observeRequests(app: FastifyInstance): void {
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url;
    if (!route?.startsWith('/api/')) return;
    httpDuration.observe({ method: req.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
}
