import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RoleId } from '@platform/domain';
import type { AuthState } from '../modules/auth/sessions.ts';
import { AppError } from './errors.ts';

/** Who may call a route: 'public' (anyone), 'user' (any signed-in role) or a list of role ids. */
export type RouteAccess = 'public' | 'user' | readonly RoleId[];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; a route without one is refused for everyone. */
    access?: RouteAccess;
    /** Public files that need no caller identity: the session cookie is not even looked up. */
    sessionless?: boolean;
  }
  interface FastifyRequest {
    auth: AuthState | null;
  }
}

/** A module's routes: a Fastify plugin typed by the zod provider. */
export type RoutesPlugin = FastifyPluginAsyncZod;

/** The signed-in state of a request whose route requires one (the guard already refused anonymous calls). */
export function authOf(req: FastifyRequest): AuthState {
  if (!req.auth) throw new AppError('UNAUTHENTICATED');
  return req.auth;
}

/** Client IP as Fastify resolved it (honours TRUST_PROXY). */
export const clientIp = (req: FastifyRequest): string => req.ip;
