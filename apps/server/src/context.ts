import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { Mailer } from './integrations/mail.ts';
import type { CaptchaVerifier } from './integrations/captcha.ts';
import type { Realtime } from './realtime/realtime.ts';
import type { SignInLimits } from './modules/auth/sign-in-limits.ts';
import type { Market } from './market/types.ts';
import type { RiskHooks } from './engine/hooks.ts';
import type { ClusterBus } from './cluster/bus.ts';
import type { Leadership } from './cluster/leader.ts';
import type { Jobs } from './jobs/queue.ts';
import type { ObjectStore } from './modules/files/object-store.ts';
import type { AlertHooks } from './modules/alerts/hooks.ts';
import type { PendingHooks } from './modules/trading/pending/hooks.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The application context, decorated on the root instance at boot (see app.ts). */
    ctx: AppContext;
  }
}

/** Everything a route needs, built once at boot and passed in (no globals). */
export interface AppContext {
  config: Config;
  db: Db;
  dbKind: 'pglite' | 'postgres';
  mailer: Mailer;
  /** Background work on the database's job queue (mail, maintenance). */
  jobs: Jobs;
  captcha: CaptchaVerifier;
  /** The S3-compatible bucket new uploads go to (S3_* settings), or null: uploads are kept in the database. */
  objectStore: ObjectStore | null;
  realtime: Realtime;
  /** Failed sign-in counters per account and per IP. */
  signInLimits: SignInLimits;
  market: Market;
  /** The risk engine's view of open positions; replaced by the engine at boot. */
  risk: RiskHooks;
  /** The price alerts' watcher, told of every committed alert change; replaced by the watcher at boot. */
  alerts: AlertHooks;
  /** The pending orders' service, told of every committed pending-order change; replaced by the service at boot. */
  pending: PendingHooks;
  /** The other instances of the deployment (REDIS_URL) and which one leads; a sole instance always leads. */
  cluster: { bus: ClusterBus; leadership: Leadership };
}
