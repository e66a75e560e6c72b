import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import { ROLE_EMAIL, type TestApp, createTestApp, dbAgnosticElsewhere } from './helpers.ts';
import { users } from '../src/db/schema.ts';
import { createSession, SESSION_COOKIE } from '../src/modules/auth/sessions.ts';
import { call, cookies, routes, spellings, t, useRouteVariantsApp } from './route-variants-kit.ts';

/** Access by route (see route-variants-kit.ts); the walk of every route is in route-variants-walk-*.test.ts. */

useRouteVariantsApp();

describe.skipIf(dbAgnosticElsewhere)('access by route, whatever the URL looks like', () => {
  it('walks every registered route, the API docs included', () => {
    const urls = new Set(routes.map((r) => r.url));
    expect(urls.size).toBeGreaterThan(40);
    expect(urls).toContain('/api/admin/users/api');
    expect(urls).toContain('/api/docs/json');
    expect(routes.filter((r) => r.access === undefined).map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });

  it('the percent-encoded takeover path of the outbox is refused', async () => {
    for (const url of [
      '/%61pi/admin/mail/api?search=client',
      '/ap%69/admin/users/api',
      '/%61pi/admin/apis',
      '/%61pi/dashboard/instruments',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(401);
    }
    const client = cookies.get(3)!;
    expect(
      (await t.app.inject({ method: 'GET', url: '/%61pi/admin/mail/api', headers: { cookie: client } })).statusCode,
    ).toBe(403);
  });

  it('refuses writes before reading their body', async () => {
    // An anonymous write with an invalid body is told to sign in, not how to fix the body.
    const res = await t.app.inject({
      method: 'POST',
      url: '/%61pi/admin/users',
      payload: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe.skipIf(dbAgnosticElsewhere)('a route added to the server later', () => {
  let late: TestApp;
  beforeAll(async () => {
    late = await createTestApp(
      {},
      {
        beforeReady: async (app) => {
          await app.register(
            async (scope) => {
              scope.get('/late/undeclared', async () => ({ leaked: true }));
              scope.get('/late/admins', { config: { access: [1] } }, async () => ({ ok: true }));
            },
            { prefix: '/api' },
          );
        },
      },
    );
  });
  afterAll(async () => late.close());

  it('is guarded by its own rule, and refused without one, in every spelling', async () => {
    const admin = await createSession(late.ctx.db, {
      userId: (
        await late.ctx.db
          .select({ id: users.id })
          .from(users)
          .where(inArray(users.email, [ROLE_EMAIL[1]]))
      )[0].id,
      remember: false,
    });
    const adminCookie = `${SESSION_COOKIE}=${admin.token}`;
    for (const url of ['/api/late/undeclared', ...Object.values(spellings('/api/late/undeclared'))]) {
      expect((await call(late.app, 'GET', url, undefined, '10.9.9.9')).status, url).toBe(403);
      expect((await call(late.app, 'GET', url, adminCookie, '10.9.9.9')).status, url).toBe(403);
    }
    for (const url of ['/api/late/admins', ...Object.values(spellings('/api/late/admins'))]) {
      expect((await call(late.app, 'GET', url, undefined, '10.9.9.9')).status, url).toBe(401);
      expect((await call(late.app, 'GET', url, adminCookie, '10.9.9.9')).status, url).toBe(200);
    }
  });
});
