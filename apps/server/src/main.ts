import { loadConfig } from './config.ts';
import { boot } from './bootstrap.ts';
import { buildApp } from './app.ts';
import { DEMO_PASSWORD, DEMO_USERS } from './db/seed/index.ts';

const config = loadConfig();
const { ctx, database, seededDemo, risk } = await boot(config);
const app = await buildApp({
  ctx,
  logger: { level: config.LOG_LEVEL, ...(process.stdout.isTTY ? { transport: { target: 'pino-pretty' } } : {}) },
});
ctx.realtime.attach(app.server, ctx.db);
await app.listen({ port: config.PORT, host: config.HOST });
if (config.MARKET_FEED === 'true') await ctx.market.start();

const where = database.kind === 'pglite' ? `embedded PostgreSQL in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)';
console.log(`\nTrading platform running at ${config.appUrl} on ${where}`);
if (seededDemo || (config.SEED_DEMO !== 'false' && database.kind === 'pglite')) {
  console.log(`Demo sign-ins (password ${DEMO_PASSWORD}):`);
  for (const u of DEMO_USERS) console.log(`  role ${u.roleId}  ${u.email}`);
}
if (!ctx.mailer.smtpEnabled)
  console.log('Mail: no SMTP_URL set, so nothing is sent (evaluation mode): Admin > Mail Outbox shows sign-in links, and each opening of a live one is audited.');

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info(`${signal} received, shutting down`);
  await ctx.market.stop();
  await risk.stop();
  await ctx.realtime.close();
  await app.close();
  // Mail asked for just before the signal is still written and sent.
  await ctx.mailer.idle();
  await database.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
