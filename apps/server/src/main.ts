import { loadConfig } from './config.ts';
import { boot } from './bootstrap.ts';
import { buildApp } from './app.ts';
import { DEMO_PASSWORD, DEMO_USERS } from './db/seed/index.ts';
import { markDraining } from './modules/ops/service.ts';
import { runMarket } from './cluster/join.ts';
import { drainable } from './lib/graceful-http.ts';
import { sandboxTelephonyOn, voisoSandbox } from './modules/crm/telephony.ts';

const config = loadConfig();
const { ctx, database, seededDemo, risk } = await boot(config);
const app = await buildApp({
  ctx,
  logger: {
    level: config.LOG_LEVEL,
    ...(process.stdout.isTTY
      ? {
          transport: {
            target: 'pino-pretty',
            options: { singleLine: true, ignore: 'pid,hostname,reqId', translateTime: 'HH:MM:ss' },
          },
        }
      : {}),
  },
});
ctx.realtime.attach(app.server, ctx.db);
const http = drainable(app.server);
// A failed automatic close is retried on the position's next tick; say why it failed.
risk.onError = (err, action) =>
  app.log.error({ err, orderId: action.orderId, reason: action.reason }, 'automatic close failed');
await app.listen({ port: config.PORT, host: config.HOST });
if (config.MARKET_FEED === 'true') await runMarket(ctx);

await ctx.cluster.leadership.ready();
// The demo's telephony answers on loopback from the start (click-to-call without a Voiso account).
const telephony = sandboxTelephonyOn(ctx)
  ? `sandbox contact center on ${(await voisoSandbox(ctx)).baseUrl.replace('/{cluster}', '')} for click-to-call until a Voiso cluster id and key are saved in Admin > APIs`
  : 'Voiso, once its cluster id and key are saved in Admin > APIs (VOISO_SANDBOX=true offers the sandbox)';
console.log(startBanner());

/** Whether this instance leads now: it runs the market feeds and the risk engine's closes. */
function instances(): string {
  const { bus, leadership } = ctx.cluster;
  if (!bus.enabled) return 'one (set REDIS_URL with DATABASE_URL to run several)';
  if (!config.DATABASE_URL)
    return `Redis (cluster ${config.CLUSTER_NAME}) on the embedded database: this instance leads; without DATABASE_URL there is no shared leadership, so run one only`;
  return `several (Redis, cluster ${config.CLUSTER_NAME}); ${leadership.isLeader ? 'this instance leads now' : 'another instance leads now; this one follows'} (the leader, holding the database lock, runs the feeds and the risk engine's closes)`;
}

/** What a person starting the product needs to see: where it runs, on what, and how to sign in. */
function startBanner(): string {
  const where = database.kind === 'pglite' ? `embedded PostgreSQL in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)';
  const hours: Record<typeof config.MARKET_HOURS, string> = {
    exchange:
      'real exchange hours (forex, commodities and indices close at weekends; MARKET_HOURS=open npm start keeps every market open)',
    open: 'every market open (MARKET_HOURS=open)',
    closed: 'every market closed (MARKET_HOURS=closed)',
  };
  const lines = [
    '',
    `Trading platform: ${config.appUrl}`,
    `  Database:     ${where}`,
    `  Market hours: ${hours[config.MARKET_HOURS]}`,
    `  Prices:       ${config.MARKET_FEED === 'true' ? 'simulated feed unless a provider key is set in Admin > APIs' : 'feed off (MARKET_FEED=false)'}`,
    `  Instances:    ${instances()}`,
    `  Uploads:      ${ctx.objectStore ? `S3, ${ctx.objectStore.where} (files stored before stay in the database)` : 'in the database (S3_BUCKET with its keys puts new ones in S3)'}`,
    `  Telephony:    ${telephony}`,
    `  Mail:         ${ctx.mailer.smtpEnabled ? 'sent by SMTP' : 'not sent (no SMTP_URL): Admin > Mail Outbox shows the mails, each opening of a live link is audited'}`,
  ];
  if (seededDemo || (config.SEED_DEMO !== 'false' && database.kind === 'pglite')) {
    lines.push(`  Demo sign-ins, password ${DEMO_PASSWORD}:`);
    for (const u of DEMO_USERS) lines.push(`    ${u.email.padEnd(22)} role ${u.roleId}`);
  }
  lines.push('  Requests are logged only when they fail or are slow (LOG_REQUESTS=all logs every one).', '');
  return lines.join('\n');
}

let closing = false;
/**
 * Graceful stop, in the order a deploy needs it: the leadership is released at once (the other instances are told
 * and one takes it within moments) and /readyz answers 503; the listener stops, so new connections go to another
 * instance; every request that reached this one is read and answered, each answer closing its kept-alive connection,
 * and idle connections are closed; websocket clients are told to go (they reconnect elsewhere); then the market and
 * the risk engine stop and the job queue lets go. A stop that hangs is cut after SHUTDOWN_GRACE_MS (exit code 1).
 */
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  const started = Date.now();
  app.log.info(`${signal} received, shutting down`);
  markDraining();
  // Which step a stop that hangs was waiting for, for the log line that ends it.
  let step = 'leadership';
  setTimeout(() => {
    app.log.error(`shutdown took too long (waiting for: ${step}); exiting`);
    process.exit(1);
  }, config.SHUTDOWN_GRACE_MS).unref();
  const led = ctx.cluster.leadership.isLeader;
  await ctx.cluster.leadership.close();
  if (led) ctx.cluster.bus.publish('leader', { released: true });
  step = 'requests in flight';
  const drained = await http.drain({
    deadlineMs: Math.max(1000, config.SHUTDOWN_GRACE_MS - 3000),
    settled: () => ctx.realtime.close(),
  });
  if (!drained) app.log.warn('connections still open at the deadline were closed');
  step = 'http server';
  await app.close();
  step = 'market';
  await ctx.market.stop();
  step = 'risk engine';
  await risk.stop();
  step = 'cluster bus';
  await ctx.cluster.bus.close();
  step = 'database';
  await database.close();
  app.log.info(`stopped in ${Date.now() - started} ms`);
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
