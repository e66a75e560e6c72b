import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';
import { resolveSession, SESSION_COOKIE } from '../modules/auth/sessions.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence for cookie sessions: SameSite=Lax cookies, and state-changing requests must not come from
 * another site (Origin header, else Sec-Fetch-Site). Non-browser clients that send neither pass.
 */
function assertSameOrigin(req: FastifyRequest, allowedOrigins: Set<string>): void {
  if (SAFE_METHODS.has(req.method)) return;
  const origin = req.headers.origin;
  if (origin && origin !== 'null') {
    const host = req.headers['x-forwarded-host'] ?? req.headers.host;
    let ok = allowedOrigins.has(origin);
    try {
      ok ||= new URL(origin).host === host;
    } catch {
      ok = false;
    }
    if (!ok) throw new AppError('CSRF');
    return;
  }
  if (origin === 'null' || req.headers['sec-fetch-site'] === 'cross-site') throw new AppError('CSRF');
}

/**
 * Resolves the session cookie on every API request and enforces each route's declared access.
 * Deny by default: a route that declares no access is refused for everyone.
 */
export function registerSecurity(app: FastifyInstance): void {
  const allowedOrigins = new Set([new URL(app.ctx.config.appUrl).origin]);
  app.decorateRequest('auth', null);

  app.addHook('onRequest', async (req) => {
    if (!req.url.startsWith('/api/') || req.url.startsWith('/api/docs')) return;
    assertSameOrigin(req, allowedOrigins);
    const token = req.cookies[SESSION_COOKIE];
    req.auth = token ? await resolveSession(app.ctx.db, token, req.ip) : null;
  });

  // preValidation: access is decided before the body is validated, so anonymous callers get 401, not 400.
  app.addHook('preValidation', async (req) => {
    if (req.is404 || !req.url.startsWith('/api/') || req.url.startsWith('/api/docs')) return;
    const access = req.routeOptions.config.access;
    if (access === undefined) throw new AppError('FORBIDDEN', 'This endpoint declares no access rule.');
    if (access === 'public') return;
    if (!req.auth) throw new AppError('UNAUTHENTICATED');
    if (access === 'user') return;
    if (!access.includes(req.auth.user.roleId)) throw new AppError('FORBIDDEN');
  });
}
