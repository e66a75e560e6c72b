import type { FastifyReply } from 'fastify';
import type { Config } from '../../config.ts';
import { SESSION_COOKIE } from './sessions.ts';

/** httpOnly, SameSite=Lax; "Remember Me" gets a dated cookie, otherwise a browser-session cookie. */
export function setSessionCookie(
  reply: FastifyReply,
  config: Config,
  token: string,
  remember: boolean,
  expiresAt: Date,
): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.COOKIE_SECURE,
    ...(remember ? { expires: expiresAt } : {}),
  });
}

export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: config.COOKIE_SECURE });
}
