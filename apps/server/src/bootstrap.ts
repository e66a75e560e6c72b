import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { openDatabase, type Database } from './db/client.ts';
import { isEmpty, seedBase, seedDemo } from './db/seed/index.ts';
import { seedDemoActivity } from './db/seed/demo-activity.ts';
import { createBus } from './cluster/bus.ts';
import { advisoryLeadership, soleLeader } from './cluster/leader.ts';
import { seedDemoLeads } from './db/seed/demo-leads.ts';
import { seedDemoDesk } from './db/seed/demo-desk.ts';
import { seedDemoPartners } from './db/seed/demo-partners.ts';
import { createMailer } from './integrations/mail.ts';
import { createJobs } from './jobs/queue.ts';
import { jobHandlers } from './jobs/handlers.ts';
import { createCaptchaVerifier } from './integrations/captcha.ts';
import { createS3Store } from './modules/files/object-store.ts';
import { createRealtime } from './realtime/realtime.ts';
import { SignInLimits } from './modules/auth/sign-in-limits.ts';
import { createMarket } from './market/index.ts';
import { noRisk } from './engine/hooks.ts';
import { RiskService } from './engine/risk-service.ts';
import { AlertWatcher } from './modules/alerts/watch.ts';
import { noAlerts } from './modules/alerts/hooks.ts';
import { noPending } from './modules/trading/pending/hooks.ts';
import { PendingService } from './modules/trading/pending/pending-service.ts';
import { setPeerPublisher, type PeerCacheMessage } from './cluster/peers.ts';
import { forgetUserSessionsHere } from './modules/auth/sessions.ts';
import { invalidateSettingsHere } from './modules/settings/service.ts';
import { invalidateTranslationsHere } from './modules/i18n/service.ts';
import { flushPartnerDeals } from './modules/partners/hook.ts';

export interface Booted {
  ctx: AppContext;
  database: Database;
  seededDemo: boolean;
  /** The risk engine, already following the price book; stop it before closing the database. */
  risk: RiskService;
}

/**
 * config -> database (+migrations) -> base data -> demo data when the database is empty and demo seeding applies,
 * each step safe when several instances start at once (see Database.exclusive).
 * Demo accounts go only into an empty embedded database unless SEED_DEMO=true; never silently into PostgreSQL.
 */
export async function boot(config: Config, opts: { memory?: boolean } = {}): Promise<Booted> {
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: opts.memory ? null : config.dataDir });
  // Several instances may start together on an empty database: base data, demo data and (below) the job queue's
  // tables are written under the start-up lock, so exactly one of them seeds and the others find it done.
  const seededDemo = await database.exclusive(async () => {
    await seedBase(database.db);
    const wantDemo = config.SEED_DEMO === 'true' || (config.SEED_DEMO === 'auto' && database.kind === 'pglite');
    const seeding = wantDemo && (await isEmpty(database.db));
    if (seeding) await seedDemo(database.db);
    const wantActivity =
      config.DEMO_ACTIVITY === 'true' || (config.DEMO_ACTIVITY === 'auto' && config.NODE_ENV !== 'test');
    if (seeding && wantActivity) {
      await seedDemoActivity(database.db);
      await seedDemoLeads(database.db);
      await seedDemoDesk(database.db);
      await seedDemoPartners(database.db);
    }
    return seeding;
  });
  const bus = await createBus(config.REDIS_URL, config.CLUSTER_NAME);
  // Several instances share one PostgreSQL; the embedded database has exactly one.
  const leadership = bus.enabled && config.DATABASE_URL ? advisoryLeadership(config.DATABASE_URL) : soleLeader();
  // A leader that stops says so (main.ts), and the others try for the lock at once instead of at their next poll.
  if (bus.enabled) bus.subscribe('leader', () => leadership.claim());
  const realtime = createRealtime(config.appUrl, bus);
  if (bus.enabled) {
    setPeerPublisher((m) => bus.publish('cache', m));
    bus.subscribe('cache', (raw) => {
      const m = raw as PeerCacheMessage;
      if (m.kind === 'sessions') forgetUserSessionsHere(m.userId);
      else if (m.kind === 'settings') invalidateSettingsHere();
      else if (m.kind === 'translations') invalidateTranslationsHere(m.code);
    });
  }
  const ctx: AppContext = {
    config,
    db: database.db,
    dbKind: database.kind,
    mailer: createMailer(database.db, { smtpUrl: config.SMTP_URL, from: config.MAIL_FROM }),
    jobs: createJobs(database.queue, database.db, { fast: config.NODE_ENV === 'test' }),
    captcha: createCaptchaVerifier(config.RECAPTCHA_VERIFY_URL),
    objectStore: config.s3 ? createS3Store(config.s3) : null,
    realtime,
    signInLimits: new SignInLimits(bus.redis ? { client: bus.redis, prefix: `${config.CLUSTER_NAME}:` } : null),
    market: await createMarket({ config, db: database.db, realtime }),
    risk: noRisk,
    alerts: noAlerts,
    pending: noPending,
    cluster: { bus, leadership },
  };
  const risk = new RiskService(() => ctx);
  ctx.risk = risk;
  await risk.start();
  const pending = new PendingService(() => ctx);
  ctx.pending = pending;
  await pending.start();
  const alerts = new AlertWatcher(() => ctx);
  ctx.alerts = alerts;
  await alerts.start();
  await database.exclusive(() => ctx.jobs.start(jobHandlers(ctx)));
  // Whoever closes the database stops the queue's workers first (they poll it).
  const close = database.close;
  database.close = async () => {
    // Pending orders filling now finish before the database goes.
    await pending.stop();
    // Alerts firing now finish (and queue their mail) before the queue and the database go.
    await alerts.stop();
    // Deals closed in the last second go to the queue now rather than to the next sweep.
    await flushPartnerDeals(ctx.db);
    await ctx.jobs.stop();
    await close();
  };
  return { ctx, database, seededDemo, risk };
}
