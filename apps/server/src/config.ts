import path from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');
/** An optional setting where an empty value (`S3_ENDPOINT=` in a compose file) means unset. */
const unsetIfEmpty = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

const Env = z.object({
  NODE_ENV: z.string().default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /** Real PostgreSQL; without it the embedded PGlite database under DATA_DIR is used. */
  DATABASE_URL: z.string().optional(),
  DATA_DIR: z.string().default('./data'),
  /** Seed demo accounts into an empty database. Default: only for the embedded database. */
  SEED_DEMO: z.enum(['auto', 'true', 'false']).default('auto'),
  /** With the demo accounts, a month of customers, deposits, withdrawals and trades. Default: on, except in tests. */
  DEMO_ACTIVITY: z.enum(['auto', 'true', 'false']).default('auto'),
  /** Redis shared by several instances of one deployment (realtime rooms, prices from the leader, cache refreshes). */
  REDIS_URL: z.string().optional(),
  /** Names this deployment's channels in a Redis that serves others too. */
  CLUSTER_NAME: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,40}$/, 'CLUSTER_NAME: letters, digits, - and _ only')
    .default('platform'),
  /** smtp(s)://user:pass@host:port; without it mail stays in the outbox staff can read. */
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Platform <no-reply@localhost>'),
  /** Public address of the site, used in mailed links; defaults to http://localhost:PORT. */
  APP_URL: z.string().optional(),
  RECAPTCHA_VERIFY_URL: z.string().default('https://www.google.com/recaptcha/api/siteverify'),
  /** Set behind a reverse proxy so the client IP comes from X-Forwarded-For. */
  TRUST_PROXY: bool,
  /** Cookies marked Secure (HTTPS deployments). */
  COOKIE_SECURE: bool,
  LOG_LEVEL: z.string().default('info'),
  /** Longest a graceful stop (SIGTERM) may take before the process exits anyway. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(1000).max(600_000).default(25_000),
  /** Bearer token Prometheus sends to scrape /metrics; without it /metrics is closed (admins read /api/admin/metrics). */
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  /** Request lines: 'errors' (server errors and answers slower than 2 s, the default), 'all' (every API request), 'none'. */
  LOG_REQUESTS: z.enum(['errors', 'all', 'none']).default('errors'),
  /**
   * Market hours: 'exchange' follows real trading hours (forex, commodities and indices closed at the weekend,
   * stocks in NYSE hours, crypto always open); 'open' or 'closed' pins every market, for demos and tests.
   */
  MARKET_HOURS: z.enum(['exchange', 'open', 'closed']).default('exchange'),
  /** Seed of the simulated feed's random walk, so a demo replays the same prices. */
  FEED_SEED: z.coerce.number().int().default(20261121),
  /** Milliseconds between two bursts of the simulated feed. */
  FEED_TICK_MS: z.coerce.number().int().min(20).max(60_000).default(250),
  /** Set to false to run without any market feed (prices stay as stored). */
  MARKET_FEED: z.enum(['true', 'false']).default('true'),
  /** Polygon.io WebSocket host; '/forex' and '/crypto' are appended. */
  POLYGON_WS_URL: z.string().default('wss://socket.polygon.io'),
  /** EOD Historical Data WebSocket base; '/us-quote?api_token=...' is appended. */
  EOD_WS_URL: z.string().default('wss://ws.eodhistoricaldata.com/ws'),
  /**
   * Oanda pricing stream host for both account kinds; unset, the Oanda settings record's mode picks
   * https://stream-fxpractice.oanda.com or https://stream-fxtrade.oanda.com.
   */
  OANDA_STREAM_URL: z.string().optional(),
  /** currencyapi.com API base ('/latest' and '/status' are appended). */
  CURRENCY_API_URL: z.string().default('https://api.currencyapi.com/v3'),
  /**
   * Voiso's API origin; `{cluster}` is replaced by the cluster id of the Trade APIs record (value1). Tests and
   * proxies point it elsewhere, e.g. http://127.0.0.1:4010/{cluster}.
   */
  VOISO_BASE_URL: z.string().default('https://{cluster}.voiso.com'),
  /** Longest wait for Voiso's answer to a call or status request. */
  VOISO_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /**
   * The built-in sandbox telephony (a local contact center speaking Voiso's protocol, so click-to-call works without a
   * Voiso account). 'auto': on with the embedded database outside tests; 'true' on any database; 'false' never. A
   * Voiso cluster id and key saved in Trade APIs always win over it.
   */
  VOISO_SANDBOX: z.enum(['auto', 'true', 'false']).default('auto'),
  WEB_DIST: z.string().optional(),
  /**
   * S3-compatible storage for new uploads; unset, uploads stay in the database. Bucket, access key id and secret go
   * together (see s3Settings); the endpoint defaults to AWS for the region, MinIO and most others need path style.
   */
  S3_ENDPOINT: unsetIfEmpty(z.url({ protocol: /^https?$/, error: 'S3_ENDPOINT must be an http(s) URL' })),
  S3_BUCKET: unsetIfEmpty(
    z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
        'S3_BUCKET must be a bucket name (3-63 lower-case letters, digits, dots and dashes)',
      ),
  ),
  S3_REGION: unsetIfEmpty(z.string().regex(/^[a-z0-9-]{1,40}$/, 'S3_REGION must be a region name such as us-east-1')),
  S3_ACCESS_KEY_ID: unsetIfEmpty(z.string()),
  S3_SECRET_ACCESS_KEY: unsetIfEmpty(z.string()),
  S3_FORCE_PATH_STYLE: bool,
  /** Key of the HMAC-SHA256 that signs exported checkpoints of the records' hash chains (unset: unsigned). */
  RECORDS_SIGNING_KEY: unsetIfEmpty(z.string().min(16, 'RECORDS_SIGNING_KEY must be at least 16 characters')),
  /**
   * The built-in sandbox card gateway (a payment page that approves or declines without real money). 'auto': allowed
   * on the embedded database only, never on a real PostgreSQL one unless set to 'true'.
   */
  PAYMENTS_SANDBOX: z.enum(['auto', 'true', 'false']).default('auto'),
  /** Base URLs of payment providers' APIs by gateway kind, as JSON ({"stripe":"https://..."}); for test fakes and proxies. */
  PAYMENT_API_URLS: z
    .string()
    .optional()
    .transform((s, ctx) => {
      if (!s) return {} as Record<string, string>;
      try {
        return z.record(z.string(), z.string()).parse(JSON.parse(s));
      } catch {
        ctx.addIssue({ code: 'custom', message: 'PAYMENT_API_URLS must be a JSON object of kind to URL' });
        return z.NEVER;
      }
    }),
});

/** Where new uploads go when S3 storage is configured (see modules/files/object-store.ts). */
export interface S3Settings {
  endpoint: string | undefined;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

export type Config = z.infer<typeof Env> & { appUrl: string; dataDir: string; webDist: string; s3: S3Settings | null };

const S3_REQUIRED = ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;

/**
 * S3 storage is on when its settings are given and off when none is. Half a configuration would quietly keep
 * uploads in the database or fail at the first upload, so it stops the start, naming what is missing.
 */
const EnvChecked = Env.superRefine((v, ctx) => {
  const given = (['S3_ENDPOINT', ...S3_REQUIRED, 'S3_REGION', 'S3_FORCE_PATH_STYLE'] as const).filter((k) =>
    Boolean(v[k]),
  );
  if (given.length === 0) return;
  const missing = S3_REQUIRED.filter((k) => !v[k]);
  if (missing.length === 0) return;
  ctx.addIssue({
    code: 'custom',
    path: [missing[0]],
    message: `S3 storage is partly configured: ${given.join(', ')} set but ${missing.join(', ')} missing. Set ${S3_REQUIRED.join(', ')} together, or no S3_ setting to keep uploads in the database.`,
  });
});

function s3Settings(v: z.infer<typeof Env>): S3Settings | null {
  if (!v.S3_BUCKET || !v.S3_ACCESS_KEY_ID || !v.S3_SECRET_ACCESS_KEY) return null;
  return {
    endpoint: v.S3_ENDPOINT,
    bucket: v.S3_BUCKET,
    region: v.S3_REGION ?? 'us-east-1',
    accessKeyId: v.S3_ACCESS_KEY_ID,
    secretAccessKey: v.S3_SECRET_ACCESS_KEY,
    forcePathStyle: v.S3_FORCE_PATH_STYLE,
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvChecked.parse(env);
  const root = path.resolve(import.meta.dirname, '../../..');
  return {
    ...parsed,
    s3: s3Settings(parsed),
    appUrl: parsed.APP_URL ?? `http://localhost:${parsed.PORT}`,
    dataDir: path.resolve(parsed.DATA_DIR),
    webDist: parsed.WEB_DIST ? path.resolve(parsed.WEB_DIST) : path.join(root, 'apps/web/dist'),
  };
}
