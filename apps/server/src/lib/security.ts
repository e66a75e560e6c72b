import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { AppError } from './errors.ts';
import type { RouteAccess } from './http.ts';
import { resolveSession, SESSION_COOKIE } from '../modules/auth/sessions.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * True when a browser says the request comes from another site: an Origin that is neither the app's address nor the
 * origin the request was sent to (scheme, host and port: an http:// page is not the https:// site), an opaque
 * ("null") Origin, or, without Origin, Sec-Fetch-Site: cross-site. Non-browser clients that send neither pass (they
 * carry no ambient cookies of a victim).
 */
export function isCrossSite(
  headers: IncomingHttpHeaders,
  allowedOrigins: ReadonlySet<string>,
  ownOrigin: string,
): boolean {
  const origin = headers.origin;
  if (origin && origin !== 'null') {
    try {
      const normalised = new URL(origin).origin;
      return !allowedOrigins.has(normalised) && normalised !== new URL(ownOrigin).origin;
    } catch {
      return true;
    }
  }
  return origin === 'null' || headers['sec-fetch-site'] === 'cross-site';
}

/** CSRF defence for cookie sessions: SameSite=Lax cookies, and state-changing requests must not come from another site. */
function assertSameOrigin(req: FastifyRequest, allowedOrigins: ReadonlySet<string>): void {
  // req.protocol and req.host follow X-Forwarded-Proto/-Host only behind a trusted proxy (TRUST_PROXY).
  if (!SAFE_METHODS.has(req.method) && isCrossSite(req.headers, allowedOrigins, `${req.protocol}://${req.host}`))
    throw new AppError('CSRF');
}

/** The origins the app is served from (its public address), accepted beside the request's own host. */
export const appOrigins = (appUrl: string): ReadonlySet<string> => new Set([new URL(appUrl).origin]);

/** Decides whether the caller may run the route they reached; throws 401/403 otherwise. */
function assertAllowed(req: FastifyRequest, access: RouteAccess | undefined): void {
  if (access === undefined) throw new AppError('FORBIDDEN', 'This endpoint declares no access rule.');
  if (access === 'public') return;
  if (!req.auth) throw new AppError('UNAUTHENTICATED');
  if (access === 'user') return;
  if (!access.includes(req.auth.user.roleId)) throw new AppError('FORBIDDEN');
}

function noStore(
  _req: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (err: null, payload: unknown) => void,
): void {
  // API answers carry personal data (balances, profiles, mail): never kept by a browser or proxy cache.
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  done(null, payload);
}

const asArray = <T>(hook: T | T[] | undefined): T[] => (hook === undefined ? [] : Array.isArray(hook) ? hook : [hook]);

/**
 * The guard is attached to every route when it is registered (onRoute), so whichever URL spelling the router
 * resolved to a route, that route's own rule applies: there is no URL test that an encoded or odd path could
 * slip past. Per route, before anything else runs for it (before the body is even parsed):
 *  1. the CSRF check for state-changing methods,
 *  2. the session cookie resolved to the caller (`req.auth`),
 *  3. the route's declared access: 'public', 'user' or a list of roles. A route without a rule is refused.
 * Static assets (the web app's files, the API docs page) are registered inside `publicAssets`, which marks them
 * public and sessionless. Must be called before any plugin registers routes.
 */
export function registerSecurity(app: FastifyInstance): void {
  const allowedOrigins = appOrigins(app.ctx.config.appUrl);
  app.decorateRequest('auth', null);

  async function guard(req: FastifyRequest): Promise<void> {
    const { access, sessionless } = req.routeOptions.config;
    // A route without a rule is refused before any work is done for it.
    if (access === undefined) assertAllowed(req, access);
    assertSameOrigin(req, allowedOrigins);
    if (!sessionless) {
      const token = req.cookies[SESSION_COOKIE];
      req.auth = token ? await resolveSession(app.ctx.db, token, req.ip) : null;
    }
    assertAllowed(req, access);
  }

  app.addHook('onRoute', (route: RouteOptions) => {
    // First of the route's own hooks: a hook a route or plugin declares never runs for a caller the guard refuses.
    route.onRequest = [guard, ...asArray(route.onRequest)];
    route.onSend = [...asArray(route.onSend), noStore];
  });
}

/**
 * Registers plugins whose routes serve public files (the web app, the API docs page): each route they add is
 * marked public and sessionless, and keeps the long-lived caching its plugin sets. Anything else stays deny-by-default.
 */
export function publicAssets(register: (scope: FastifyInstance) => Promise<void>) {
  return async (scope: FastifyInstance) => {
    scope.addHook('onRoute', (route: RouteOptions) => {
      route.config = { ...route.config, access: 'public', sessionless: true };
      route.onSend = asArray(route.onSend).filter((h) => h !== noStore);
    });
    await register(scope);
  };
}
