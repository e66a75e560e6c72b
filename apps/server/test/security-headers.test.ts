import fs from 'node:fs';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, DEMO, signIn, type TestApp } from './helpers.ts';
import { putSetting } from '../src/modules/settings/service.ts';

/** A built web app in miniature: the SPA page and one hashed asset. */
function webDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><div id="root"></div><script type="module" src="/assets/index-AbC123.js"></script>',
  );
  fs.writeFileSync(path.join(dir, 'assets/index-AbC123.js'), 'console.log(1)');
  // As the build leaves them: the same file compressed beside it.
  fs.writeFileSync(path.join(dir, 'assets/index-AbC123.js.br'), zlib.brotliCompressSync('console.log(1)'));
  fs.writeFileSync(path.join(dir, 'assets/index-AbC123.js.gz'), zlib.gzipSync('console.log(1)'));
  fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
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
    for (const url of [
      '/api/auth/user',
      '/api/settings/branding',
      '/',
      '/dashboard',
      '/assets/index-AbC123.js',
      '/api/nothing-here',
      '/api/docs/json',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      const csp = cspOf(res.headers);
      expect(csp['default-src'], url).toBe("'self'");
      expect(csp['script-src'], url).toBe("'self'");
      expect(csp['frame-ancestors'], url).toBe("'none'");
      expect(csp['object-src'], url).toBe("'none'");
      expect(csp['connect-src'], url).toBe("'self'");
      expect(csp['frame-src'], url).toBe("'none'");
      // Forms go to this site, and to Perfect Money's SCI for its deposits only.
      expect(csp['form-action'], url).toBe("'self' https://perfectmoney.com");
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
    for (const [method, url] of [
      ['GET', '/'],
      ['GET', '/dashboard'],
      ['GET', '/admin/users'],
      ['HEAD', '/'],
      ['HEAD', '/dashboard'],
    ] as const) {
      const page = await t.app.inject({ method, url });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type'], url).toMatch(/text\/html/);
      expect(page.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('sends the web app pre-compressed, hashed files cached for good and other files briefly', async () => {
    const br = await t.app.inject({
      method: 'GET',
      url: '/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe('console.log(1)');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const gz = await t.app.inject({
      method: 'GET',
      url: '/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe('console.log(1)');
    const plain = await t.app.inject({
      method: 'GET',
      url: '/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(1)');
    const icon = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.headers['cache-control']).toBe('public, max-age=300');
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

/** One raw HTTP exchange (requests a client library would refuse to send); resolves with the status line and headers. */
function rawRequest(port: number, request: string): Promise<{ status: number; headers: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head] = data.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers });
    });
  });
}

describe('answers written outside Fastify', () => {
  let live: TestApp;
  let port: number;
  beforeAll(async () => {
    live = await createTestApp();
    await live.app.listen({ host: '127.0.0.1', port: 0 });
    live.ctx.realtime.attach(live.app.server, live.ctx.db);
    port = (live.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await live.ctx.realtime.close();
    await live.close();
  });

  const expectBaseline = (headers: Record<string, string>, what: string) => {
    expect(headers['x-content-type-options'], what).toBe('nosniff');
    expect(headers['x-frame-options'], what).toBe('DENY');
    expect(headers['referrer-policy'], what).toBe('no-referrer');
    expect(headers['content-security-policy'], what).toMatch(/frame-ancestors 'none'/);
  };

  it('Socket.IO polling answers carry the headers, errors included', async () => {
    const ok = await fetch(`http://127.0.0.1:${port}/socket.io/?EIO=4&transport=polling`);
    expect(ok.status).toBe(200);
    expectBaseline(Object.fromEntries(ok.headers), 'polling handshake');
    const refused = await fetch(`http://127.0.0.1:${port}/socket.io/?EIO=3&transport=polling`);
    expect(refused.status).toBe(400);
    expectBaseline(Object.fromEntries(refused.headers), 'polling error');
  });

  it('requests Node cannot parse get a JSON answer with the headers', async () => {
    const badChar = await rawRequest(port, `GET /api/auth/user HTTP/1.1\r\nHost: x\r\nAccept: \x01\r\n\r\n`);
    expect(badChar.status).toBe(400);
    expectBaseline(badChar.headers, 'malformed header');
    expect(badChar.headers['content-type']).toBe('application/json');
    const huge = await rawRequest(
      port,
      `GET /api/auth/user HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`,
    );
    expect(huge.status).toBe(431);
    expectBaseline(huge.headers, 'headers too large');
  });

  it('Fastify answers keep helmet’s fuller policy', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/settings/branding`);
    expect(res.headers.get('content-security-policy')).toMatch(/^default-src 'self'/);
  });
});
