import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { RoutesPlugin } from '../../lib/http.ts';
import { registry } from '../../lib/metrics.ts';
import { readiness } from './service.ts';
import { RiskService } from '../../engine/risk-service.ts';

const Health = z.object({ status: z.string() });
const Ready = z.object({ ready: z.boolean(), checks: z.record(z.string(), z.string()) });

/** A sessionless public route: probes and scrapers carry no cookie and no Origin. */
const probe = { access: 'public', sessionless: true } as const;

async function sendMetrics(reply: FastifyReply) {
  return reply.type(registry.contentType).send(await registry.metrics());
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Health for load balancers and metrics for Prometheus, at the root beside the app (not under /api). */
export const opsRoutes: RoutesPlugin = async (app) => {
  const { ctx } = app;

  app.get('/healthz', { config: probe, schema: { hide: true, response: { 200: Health } } }, async () => ({
    status: 'ok',
  }));

  app.get(
    '/readyz',
    { config: probe, schema: { hide: true, response: { 200: Ready, 503: Ready } } },
    async (_req, reply) => {
      const r = await readiness(ctx);
      return reply.status(r.ready ? 200 : 503).send(r);
    },
  );

  // Scrapers authenticate with METRICS_TOKEN as a bearer token; without one configured the endpoint stays closed.
  app.get('/metrics', { config: probe, schema: { hide: true } }, async (req: FastifyRequest, reply) => {
    const token = ctx.config.METRICS_TOKEN;
    const given = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!token)
      return reply.status(404).send({
        message: 'Metrics are off: set METRICS_TOKEN to scrape them, or read them as an admin at /api/admin/metrics.',
      });
    if (!given || !sameSecret(given, token))
      return reply.status(401).send({ message: 'A valid metrics token is required.' });
    return sendMetrics(reply);
  });
};

/** The same metrics for a signed-in admin (a browser, or a scraper that holds an admin session). */
export const adminMetricsRoutes: RoutesPlugin = async (app) => {
  app.get('/admin/metrics', { config: { access: [1] }, schema: { tags: ['ops'], hide: true } }, async (_req, reply) =>
    sendMetrics(reply),
  );
  // This instance's risk engine against the database (after a takeover, say): what it tracks that is closed, what is
  // open that it does not track, and wallets whose figures differ.
  app.get(
    '/admin/risk-engine',
    { config: { access: [1] }, schema: { tags: ['ops'], hide: true } },
    async (_req, reply) => {
      const risk = app.ctx.risk;
      if (!(risk instanceof RiskService)) return reply.status(404).send({ message: 'No risk engine runs here.' });
      return risk.check();
    },
  );
};
