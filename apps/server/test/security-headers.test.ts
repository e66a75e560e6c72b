import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, DEMO, signIn, type TestApp } from './helpers.ts';
import { putSetting } from '../src/modules/settings/service.ts';

/** A built web app in miniature: the SPA page and one hashed asset. */
function webDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="root"></div><script type="module" src="/assets/index-AbC123.js"></script>');
  fs.writeFileSync(path.join(dir, 'assets/index-AbC123.js'), 'console.log(1)');
  return dir;
}

const cspOf = (h: Record<string, unknown>) =>
  Object.fromEntries(
    String(h['content-security-policy'])
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((p) => p[0])
      .map(([name, ...values]) => [name, values.join(' ')]),
  );

let t: TestApp;
let dist: string;
beforeAll(async () => {
  dist = webDist();
  t = await createTestApp({ WEB_DIST: dist });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('security headers', () => {
  it('every response carries the CSP, framing, sniffing and referrer headers', async () => {
    for (const url of ['/api/auth/user', '/api/settings/branding', '/', '/dashboard', '/assets/index-AbC123.js', '/api/nothing-here', '/api/docs/json']) {
      const res = await t.app.inject({ method: 'GET', url });
      const csp = cspOf(res.headers);
      expect(csp['default-src'], url).toBe("'self'");
      expect(csp['script-src'], url).toBe("'self'");
      expect(csp['frame-ancestors'], url).toBe("'none'");
      expect(csp['object-src'], url).toBe("'none'");
      expect(csp['connect-src'], url).toBe("'self'");
      expect(csp['frame-src'], url).toBe("'none'");
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
      // Served over plain HTTP (COOKIE_SECURE off): no HSTS, which would pin a broker's test host to HTTPS.
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
    }
  });

  it('API answers are never cached; the web app files keep their own caching', async () => {
    const client = await signIn(t.app, DEMO.client);
    for (const url of ['/api/auth/user', '/api/dashboard/orders', '/api/statements/history']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie: client } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/user' })).headers['cache-control']).toBe('no-store');
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-AbC123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).not.toMatch(/no-store/);
    // Paths under /api in any spelling are API paths: never answered with the web app's page.
    for (const url of ['/api%2Fauth%2Fuser', '/api;x=1/auth/user', '/%61pi/nothing', '/api']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/json/);
    }
    for (const [method, url] of [['GET', '/'], ['GET', '/dashboard'], ['GET', '/admin/users'], ['HEAD', '/'], ['HEAD', '/dashboard']] as const) {
      const page = await t.app.inject({ method, url });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type'], url).toMatch(/text\/html/);
      expect(page.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('allows the captcha provider only while the captcha is switched on', async () => {
    await putSetting(t.ctx.db, 'recaptcha', { value1: 'site-key', value2: 'secret', value3: 'on' });
    const now = Date.now();
    // The switch is re-read at most every few seconds.
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => now + 10_000);
    try {
      const csp = cspOf((await t.app.inject({ method: 'GET', url: '/' })).headers);
      expect(csp['script-src']).toBe("'self' https://www.google.com/recaptcha/ https://www.gstatic.com/recaptcha/");
      expect(csp['frame-src']).toBe('https://www.google.com/recaptcha/ https://recaptcha.google.com/recaptcha/');
      await putSetting(t.ctx.db, 'recaptcha', { value3: 'off' });
      clock.mockImplementation(() => now + 20_000);
      expect(cspOf((await t.app.inject({ method: 'GET', url: '/' })).headers)['script-src']).toBe("'self'");
    } finally {
      clock.mockRestore();
    }
  });
});

describe('over HTTPS (COOKIE_SECURE)', () => {
  let secure: TestApp;
  beforeAll(async () => {
    secure = await createTestApp({ COOKIE_SECURE: 'true' });
  });
  afterAll(async () => secure.close());

  it('pins the browser to HTTPS with HSTS and upgrades insecure requests', async () => {
    const res = await secure.app.inject({ method: 'GET', url: '/api/settings/branding' });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(cspOf(res.headers)).toHaveProperty('upgrade-insecure-requests');
  });
});
