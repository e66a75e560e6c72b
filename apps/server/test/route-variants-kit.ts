import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { ALL_ROLES, type RoleId } from '@platform/domain';
import { createTestApp, dbAgnosticElsewhere, ROLE_EMAIL, type TestApp } from './helpers.ts';
import type { RegisteredRoute } from '../src/app.ts';
import { users } from '../src/db/schema.ts';
import { createSession, SESSION_COOKIE } from '../src/modules/auth/sessions.ts';

/**
 * Access belongs to the route, not to the URL: every registered route is called with encoded and odd spellings of its
 * path, anonymously and as each role, and must answer exactly as its plain path does. A route added later is walked
 * too, so one that escapes the guard fails here. The walk of every route is split in shards (files of their own, each
 * with its own app and database) so that the test workers share it.
 */

export type Caller = RoleId | null;
const CALLERS: Caller[] = [null, ...ALL_ROLES];

/** Values for path parameters that reach real handlers (an existing language, category, settings key). */
const PARAM_VALUES: Record<string, string> = { lng: 'en', type: 'forex', category: 'forex', key: 'currencyAPI' };
const paramValue = (name: string) => PARAM_VALUES[name] ?? '999999';

/** Routes that end or replace the caller's session get a fresh one for every call. */
const ENDS_SESSION = /logout|login|back-to-admin/;

const hex = (c: string, upper = false) => {
  const h = c.charCodeAt(0).toString(16);
  return `%${upper ? h.toUpperCase() : h}`;
};

/** The route's segments: static text, or a parameter's value (kept as is in every spelling). */
function segmentsOf(url: string): { text: string; param: boolean }[] {
  return url
    .split('/')
    .slice(1)
    .map((s) => (s.startsWith(':') ? { text: paramValue(s.slice(1)), param: true } : { text: s, param: false }));
}

const join = (segs: string[]) => `/${segs.join('/')}`;

/** Spellings of the same path a browser, proxy or attacker may send; each names the same resource. */
export function spellings(url: string): Record<string, string> {
  const segs = segmentsOf(url);
  const texts = segs.map((s) => s.text);
  const plain = join(texts);
  const mapStatic = (f: (s: string) => string) => join(segs.map((s) => (s.param ? s.text : f(s.text))));
  const encodeFirstLetter = (upper: boolean) => (s: string) => (/^[a-z]/i.test(s) ? hex(s[0], upper) + s.slice(1) : s);
  const [first, ...rest] = texts;
  return {
    'first letter percent-encoded': join([encodeFirstLetter(false)(first), ...rest]),
    'every first letter encoded (upper hex)': mapStatic(encodeFirstLetter(true)),
    'every letter encoded': mapStatic((s) => s.replace(/[a-z]/gi, (c) => hex(c))),
    'upper case': mapStatic((s) => s.toUpperCase()),
    'mixed case': mapStatic((s) => s.charAt(0).toUpperCase() + s.slice(1)),
    'double slashes': `/${texts.join('//')}`,
    'leading double slash': `/${plain}`,
    'trailing slash': `${plain}/`,
    'dot-dot segment': join([first, 'x', '..', ...rest]),
    'dot segment': join([first, '.', ...rest]),
    'encoded dot-dot': join([first, '%2e%2e', first, ...rest]),
    backslashes: `/${texts.join('\\')}`,
    'query string': `${plain}?unrelated=1&x=%00`,
    'empty query': `${plain}?`,
  };
}

/** Paths that name something else (an encoded slash, NUL, overlong UTF-8): never better than the plain path. */
function otherResources(url: string): Record<string, string> {
  const plain = join(segmentsOf(url).map((s) => s.text));
  return {
    'encoded slash': plain.replace(/\//g, '%2F').replace(/^%2F/, '/'),
    'NUL in path': plain.replace(/\/([^/]*)$/, '/$1%00'),
    'overlong dot-dot': plain.replace(/^\/([^/]+)/, '/$1/%c0%ae%c0%ae'),
    'matrix parameter': plain.replace(/^\/([^/]+)/, '/$1;x=1'),
  };
}

export let t: TestApp;
export let routes: RegisteredRoute[];
const userIds = new Map<RoleId, number>();
export const cookies = new Map<RoleId, string>();

async function newCookie(role: RoleId): Promise<string> {
  const { token } = await createSession(t.ctx.db, { userId: userIds.get(role)!, remember: false, ip: '127.0.0.1' });
  return `${SESSION_COOKIE}=${token}`;
}

interface Answer {
  status: number;
  message: string | undefined;
}

export async function call(
  app: FastifyInstance,
  method: string,
  url: string,
  cookie: string | undefined,
  ip: string,
): Promise<Answer> {
  const hasBody = !['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(method);
  const res = await app.inject({
    method: method as 'GET',
    url,
    headers: cookie ? { cookie } : {},
    remoteAddress: ip,
    ...(hasBody ? { payload: {} } : {}),
  });
  let message: string | undefined;
  try {
    message = res.statusCode >= 400 ? (res.json() as { message?: string }).message : undefined;
  } catch {
    message = undefined;
  }
  return { status: res.statusCode, message };
}

/** Starts an app with a session per role, for the test file that calls it. */
export function useRouteVariantsApp(): void {
  beforeAll(async () => {
    t = await createTestApp();
    // Wildcard routes (static files) have no single plain path to compare with.
    routes = t.app.registeredRoutes.filter((r) => !r.url.includes('*'));
    const rows = await t.ctx.db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(inArray(users.email, Object.values(ROLE_EMAIL)));
    for (const role of ALL_ROLES) userIds.set(role, rows.find((r) => r.email === ROLE_EMAIL[role])!.id);
    for (const role of ALL_ROLES) cookies.set(role, await newCookie(role));
  });
  afterAll(async () => t.close());
}

/** Walks every shards-th route from `shard` on: each spelling must answer as the plain path. */
export function walkRoutes(shard: number, shards: number): void {
  useRouteVariantsApp();
  describe.skipIf(dbAgnosticElsewhere)(
    `access by route, whatever the URL looks like (routes ${shard + 1} of every ${shards})`,
    () => {
      it('answers every spelling, HEAD for GET included, as the plain path, for anonymous callers and every role', async () => {
        const failures: string[] = [];
        let calls = 0;
        for (const [i, route] of routes.entries()) {
          if (i % shards !== shard) continue;
          const plainUrl = join(segmentsOf(route.url).map((s) => s.text));
          const methods = route.method === 'GET' ? ['GET', 'HEAD'] : [route.method];
          // Callers of one route run side by side (their own addresses and sessions), routes one after another.
          await Promise.all(
            [...CALLERS.entries()].map(async ([j, caller]) => {
              // One address per route and caller keeps the per-IP request limits of public endpoints out of the comparison.
              const ip = `10.${i % 250}.${j}.${Math.floor(i / 250) + 1}`;
              const cookieFor = async () =>
                caller === null
                  ? undefined
                  : ENDS_SESSION.test(route.url)
                    ? await newCookie(caller)
                    : cookies.get(caller);
              for (const method of methods) {
                const plain = await call(t.app, method, plainUrl, await cookieFor(), ip);
                calls++;
                for (const [name, url] of Object.entries(spellings(route.url))) {
                  const got = await call(t.app, method, url, await cookieFor(), ip);
                  calls++;
                  if (got.status !== plain.status || got.message !== plain.message)
                    failures.push(
                      `${method} ${url} (${name}) as ${caller ?? 'anonymous'}: ${got.status} ${got.message ?? ''}, plain ${plainUrl} gave ${plain.status} ${plain.message ?? ''}`,
                    );
                }
                for (const [name, url] of Object.entries(otherResources(route.url))) {
                  const got = await call(t.app, method, url, await cookieFor(), ip);
                  calls++;
                  if (got.status < 400 && plain.status >= 400)
                    failures.push(
                      `${method} ${url} (${name}) as ${caller ?? 'anonymous'}: ${got.status} although the plain path is refused with ${plain.status}`,
                    );
                }
              }
            }),
          );
        }
        expect(calls).toBeGreaterThan(5000 / shards);
        expect(failures).toEqual([]);
      }, 300_000);
    },
  );
}
