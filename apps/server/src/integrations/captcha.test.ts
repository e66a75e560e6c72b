import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, DEMO_PASSWORD, type TestApp } from '../../test/helpers.ts';
import { putSetting } from '../modules/settings/service.ts';

/** What the fake siteverify endpoint was asked. */
const calls: Array<{
  secret: string | null;
  response: string | null;
  remoteip: string | null;
  contentType: string | undefined;
}> = [];

// Speaks Google's siteverify protocol: form-encoded POST in, JSON {success} out; accepts one token only.
const fake = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString('utf8')));
  req.on('end', () => {
    const form = new URLSearchParams(body);
    calls.push({
      secret: form.get('secret'),
      response: form.get('response'),
      remoteip: form.get('remoteip'),
      contentType: req.headers['content-type'],
    });
    const success =
      req.method === 'POST' && form.get('secret') === 'server-secret' && form.get('response') === 'human-ok';
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify(success ? { success: true } : { success: false, 'error-codes': ['invalid-input-response'] }),
    );
  });
});

let t: TestApp;
beforeAll(async () => {
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  const { port } = fake.address() as AddressInfo;
  t = await createTestApp({ RECAPTCHA_VERIFY_URL: `http://127.0.0.1:${port}/recaptcha/api/siteverify` });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => fake.close(() => resolve()));
});

const login = (humanKey?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: DEMO.client, password: DEMO_PASSWORD, ...(humanKey !== undefined ? { humanKey } : {}) },
  });

describe('reCAPTCHA at sign-in', () => {
  it('makes no verification call while the setting is off', async () => {
    await putSetting(t.ctx.db, 'recaptcha', { value1: 'site-key', value2: 'server-secret', value3: 'off' });
    expect((await login()).statusCode).toBe(200);
    expect((await login('anything')).statusCode).toBe(200);
    expect(calls).toHaveLength(0);
  });

  it('requires a key the provider accepts once the setting is on, sending the configured secret', async () => {
    await putSetting(t.ctx.db, 'recaptcha', { value1: 'site-key', value2: 'server-secret', value3: 'on' });
    const missing = await login();
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.humanKey).toBeDefined();
    expect(calls).toHaveLength(0);

    const rejected = await login('bot-token');
    expect(rejected.statusCode).toBe(422);
    expect(calls.at(-1)).toMatchObject({
      secret: 'server-secret',
      response: 'bot-token',
      contentType: 'application/x-www-form-urlencoded',
    });

    const ok = await login('human-ok');
    expect(ok.statusCode).toBe(200);
    expect(calls.at(-1)).toMatchObject({ secret: 'server-secret', response: 'human-ok', remoteip: '127.0.0.1' });
    expect(calls).toHaveLength(2);
  });

  it('turning it off again stops the calls', async () => {
    await putSetting(t.ctx.db, 'recaptcha', { value3: 'off' });
    const before = calls.length;
    expect((await login()).statusCode).toBe(200);
    expect(calls).toHaveLength(before);
  });
});
