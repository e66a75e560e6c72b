import fs from 'node:fs';
import path from 'node:path';
import Fastify, { LogController, type FastifyError, type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { AppContext } from './context.ts';
import { AppError, isBadDataError } from './lib/errors.ts';
import { publicAssets, registerSecurity } from './lib/security.ts';
import { resolveDotSegments } from './lib/request-path.ts';
import { getSetting, isOn } from './modules/settings/service.ts';
import { addBaselineHeaders, clientErrorHandler, registerSecurityHeaders } from './lib/headers.ts';
import type { RouteAccess } from './lib/http.ts';
import { apiRoutes } from './modules/index.ts';
import { adminMetricsRoutes, opsRoutes } from './modules/ops/routes.ts';
import { observeRequests } from './lib/metrics.ts';
import { API_KEY_SCHEME } from './modules/affiliate/routes.ts';
import { API_KEY_HEADER } from '@platform/domain';

/** One registered route as declared: what the route-matrix test checks against its table. */
export interface RegisteredRoute {
  method: string;
  url: string;
  access: RouteAccess | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route in registration order, including the HEAD twins Fastify adds to GET routes. */
    registeredRoutes: readonly RegisteredRoute[];
  }
}

export interface BuildOptions {
  ctx: AppContext;
  logger?: boolean | object;
}

/** Builds the Fastify instance (no listen): API under /api, docs at /api/docs, the web app at every other path. */
export async function buildApp({ ctx, logger = false }: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    // Fastify's two lines per request bury everything else; logRequests below writes one line where it helps.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: ctx.config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    // Odd spellings of a path (case, doubled or trailing slashes, dot segments) reach the route they name, with its guard.
    routerOptions: { caseSensitive: false, ignoreDuplicateSlashes: true, ignoreTrailingSlash: true },
    rewriteUrl: (req) => resolveDotSegments(req.url ?? '/'),
    clientErrorHandler,
  });
  addBaselineHeaders(app.server);
  app.decorate('ctx', ctx);
  logRequests(app, ctx.config.LOG_REQUESTS);
  observeRequests(app);
  // Collected before any plugin registers routes, so nothing escapes the access audit of the route matrix. The access
  // is read when asked: a plugin scope (publicAssets) may set it after this hook has seen the route.
  const registeredRoutes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', registeredRoutes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat())
      registeredRoutes.push({
        method,
        url: route.url,
        get access() {
          return route.config?.access;
        },
      });
  });
  // Before any route exists: every route gets its guard when it is registered.
  registerSecurity(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await registerSecurityHeaders(app, {
    cookieSecure: ctx.config.COOKIE_SECURE,
    paymentApiUrls: ctx.config.PAYMENT_API_URLS,
    captchaEnabled: async () => isOn(await getSetting(ctx.db, 'recaptcha'), 'value3'),
  });
  await app.register(cookie);
  // The API speaks JSON (and multipart for uploads): a text/plain body, which any page may send without asking, is a 415.
  app.removeContentTypeParser('text/plain');
  await app.register(multipart, { limits: { fileSize: 10 * 1024 * 1024, files: 5 } });
  // With several instances the counts live in Redis, so a client's limit holds whichever instance it reaches.
  const redis = ctx.cluster.bus.redis;
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: `${ctx.config.CLUSTER_NAME}:rate-limit:` } : {}),
  });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Trading platform API', version: '1.0.0' },
      // The lead-intake API is called with an affiliate's key instead of the session cookie.
      components: { securitySchemes: { [API_KEY_SCHEME]: { type: 'apiKey', in: 'header', name: API_KEY_HEADER } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(publicAssets(async (scope) => scope.register(swaggerUi, { routePrefix: '/api/docs' })));
  app.setErrorHandler(errorHandler);

  await app.register(apiRoutes, { prefix: '/api' });
  await app.register(opsRoutes);
  await app.register(adminMetricsRoutes, { prefix: '/api' });
  await serveWebApp(app, ctx.config.webDist);
  return app;
}

/**
 * One concise line per API request at most: by default only server errors and slow answers ('errors'), every API
 * request with LOG_REQUESTS=all, none with 'none'. Static files and health checks are never logged; errors are
 * logged in full by the error handler.
 */
function logRequests(app: FastifyInstance, mode: 'errors' | 'all' | 'none') {
  if (mode === 'none') return;
  app.addHook('onResponse', async (req, reply) => {
    if (!req.url.startsWith('/api/')) return;
    const ms = reply.elapsedTime;
    if (mode === 'errors' && reply.statusCode < 500 && ms < 2000) return;
    req.log.info(`${req.method} ${req.url.split('?')[0]} ${reply.statusCode} ${Math.round(ms)} ms`);
  });
}

function errorHandler(
  this: FastifyInstance,
  err: FastifyError,
  req: Parameters<FastifyInstance['errorHandler']>[1],
  reply: Parameters<FastifyInstance['errorHandler']>[2],
) {
  if (hasZodFastifySchemaValidationErrors(err)) {
    const errors: Record<string, string> = {};
    for (const v of err.validation) {
      const issuePath = (v.params?.issue as { path?: unknown[] } | undefined)?.path?.join('.');
      // `_` names the request part as a whole (a body that is not an object, say).
      const field = v.instancePath.replace(/^\//, '').replace(/\//g, '.') || issuePath || '_';
      errors[field] ??= v.message ?? 'Invalid value';
    }
    const first = Object.values(errors)[0];
    return reply.status(400).send({ message: first ?? 'Invalid request', errors });
  }
  if (err instanceof AppError) {
    if (err.cause) req.log[err.status >= 500 ? 'error' : 'warn']({ err: err.cause, code: err.code }, err.message);
    return reply.status(err.status).send({
      message: err.message,
      ...(err.errors ? { errors: err.errors } : {}),
      // The client asks for the password again and repeats the call (POST /auth/confirm).
      ...(err.code === 'REAUTH_REQUIRED' ? { reauth: true } : {}),
    });
  }
  if (err.statusCode === 429)
    return reply.status(429).send({ message: 'Too many requests. Please wait a moment and try again.' });
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    return reply.status(err.statusCode).send({ message: err.message });
  }
  if (isBadDataError(err)) {
    // Input the schemas should have refused: a 400 for the caller, a warning for us to add the missing bound.
    req.log.warn({ err, route: req.routeOptions.url }, 'database refused a value the request schema accepted');
    return reply.status(400).send({ message: 'A value is not valid or out of range.' });
  }
  req.log.error(err);
  return reply.status(500).send({ message: 'Something went wrong' });
}

/** Serves the built single-page app; unknown non-API paths get index.html so client routes work on reload. */
async function serveWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  const index = path.join(webDist, 'index.html');
  const hasWeb = fs.existsSync(index);
  // One route per built file; any other GET path falls through to the handler below (the app's client-side routes).
  if (hasWeb)
    await app.register(
      publicAssets(async (scope) =>
        scope.register(fastifyStatic, {
          root: webDist,
          wildcard: false,
          index: false,
          // The build writes .br and .gz beside each file; the one the browser accepts is sent as it is.
          preCompressed: true,
          cacheControl: false,
          setHeaders: (res, file) => {
            // Hashed names change with their content: cached for a year and never revalidated. Other files (logo, favicon) briefly.
            const hashed = file.includes(`${path.sep}assets${path.sep}`);
            res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
          },
        }),
      ),
    );
  app.setNotFoundHandler((req, reply) => {
    // Whatever its spelling (encoded slash, `;` parameters), a path under /api or of a probe never gets the web app's page.
    const isApi = /^\/+(api|healthz|readyz|metrics)(?![a-z0-9_-])/i.test(safeDecode(req.url.split('?')[0]));
    if (isApi || (req.method !== 'GET' && req.method !== 'HEAD') || !hasWeb) {
      return reply.status(404).send({ message: 'Not found.' });
    }
    // Revalidated on every visit, so a deploy's new script names are picked up at once.
    return reply.type('text/html').header('cache-control', 'no-cache').send(fs.createReadStream(index));
  });
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
