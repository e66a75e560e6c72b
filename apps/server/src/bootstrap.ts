import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { openDatabase, type Database } from './db/client.ts';
import { isEmpty, seedBase, seedDemo } from './db/seed/index.ts';
import { seedDemoActivity } from './db/seed/demo-activity.ts';
import { seedDemoLeads } from './db/seed/demo-leads.ts';
import { createMailer } from './integrations/mail.ts';
import { createCaptchaVerifier } from './integrations/captcha.ts';
import { createRealtime } from './realtime/realtime.ts';
import { SignInLimits } from './modules/auth/sign-in-limits.ts';
import { createMarket } from './market/index.ts';
import { noRisk } from './engine/hooks.ts';
import { RiskService } from './engine/risk-service.ts';

export interface Booted {
  ctx: AppContext;
  database: Database;
  seededDemo: boolean;
  /** The risk engine, already following the price book; stop it before closing the database. */
  risk: RiskService;
}

/**
 * config -> database (+migrations) -> base data -> demo data when the database is empty and demo seeding applies.
 * Demo accounts go only into an empty embedded database unless SEED_DEMO=true; never silently into PostgreSQL.
 */
export async function boot(config: Config, opts: { memory?: boolean } = {}): Promise<Booted> {
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: opts.memory ? null : config.dataDir });
  await seedBase(database.db);
  const wantDemo = config.SEED_DEMO === 'true' || (config.SEED_DEMO === 'auto' && database.kind === 'pglite');
  const seededDemo = wantDemo && (await isEmpty(database.db));
  if (seededDemo) await seedDemo(database.db);
  const wantActivity = config.DEMO_ACTIVITY === 'true' || (config.DEMO_ACTIVITY === 'auto' && config.NODE_ENV !== 'test');
  if (seededDemo && wantActivity) {
    await seedDemoActivity(database.db);
    await seedDemoLeads(database.db);
  }
  const realtime = createRealtime(config.appUrl);
  const ctx: AppContext = {
    config,
    db: database.db,
    dbKind: database.kind,
    mailer: createMailer(database.db, { smtpUrl: config.SMTP_URL, from: config.MAIL_FROM }),
    captcha: createCaptchaVerifier(config.RECAPTCHA_VERIFY_URL),
    realtime,
    signInLimits: new SignInLimits(),
    market: await createMarket({ config, db: database.db, realtime }),
    risk: noRisk,
  };
  const risk = new RiskService(() => ctx);
  ctx.risk = risk;
  await risk.start();
  return { ctx, database, seededDemo, risk };
}
