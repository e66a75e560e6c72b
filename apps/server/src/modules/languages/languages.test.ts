import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, signIn, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, DEMO.admin);
});
afterAll(() => t.close());

const call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
  cookie: string | null = admin,
) =>
  t.app.inject({
    method,
    url: `/api${url}`,
    headers: cookie ? { cookie } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

describe('languages and translations', () => {
  it('adds a language that appears in the client language menu, keeps English, and refuses bad lists', async () => {
    const list = (await call('GET', '/admin/languages'))
      .json()
      .data.map((l: { name: string; code: string }) => ({ name: l.name, code: l.code }));
    const res = await call('POST', '/admin/languages', { lotSelector: [...list, { name: 'Deutsch', code: 'DE' }] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Languages updated successfully');
    const branding = (await t.app.inject({ method: 'GET', url: '/api/settings/branding' })).json();
    expect(branding.appLangs).toContainEqual({ name: 'Deutsch', code: 'de' });
    expect(
      (
        await call('POST', '/admin/languages', { lotSelector: list.filter((l: { code: string }) => l.code !== 'en') })
      ).json().message,
    ).toBe('English (en) cannot be removed');
    expect(
      (await call('POST', '/admin/languages', { languages: [...list, { name: 'X', code: 'en' }] })).statusCode,
    ).toBe(400);
    expect(
      (await call('POST', '/admin/languages', { lotSelector: [...list, { name: 'Bad', code: 'not a code' }] }))
        .statusCode,
    ).toBe(400);
  });

  it('adds, edits and deletes translations, which the client gets at once; lists keys clients reported missing', async () => {
    // A client page asked for a key German does not have.
    await t.app.inject({ method: 'POST', url: '/api/translations/de', payload: { key: 'Welcome back' } });
    const missing = (await call('GET', '/admin/languages/api/de?missing=1')).json();
    expect(missing.data.map((r: { key: string }) => r.key)).toContain('Welcome back');
    const added = await call('POST', '/admin/languages/translations', {
      code: 'de',
      key: 'Welcome back',
      value: 'Willkommen zurück',
    });
    expect(added.statusCode, added.body).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/translations/de' })).json()['Welcome back']).toBe(
      'Willkommen zurück',
    );
    expect(
      (await call('GET', '/admin/languages/api/de?missing=1')).json().data.map((r: { key: string }) => r.key),
    ).not.toContain('Welcome back');
    const [row] = (await call('GET', '/admin/languages/api/de?search=Willkommen')).json().data;
    expect(
      (
        await call('PUT', `/admin/languages/translations/${row.id}`, {
          code: 'de',
          key: 'Welcome back',
          value: 'Schön, dass Sie zurück sind',
        })
      ).statusCode,
    ).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/translations/de' })).json()['Welcome back']).toBe(
      'Schön, dass Sie zurück sind',
    );
    expect(
      (await call('POST', '/admin/languages/translations', { code: 'de', key: 'Welcome back', value: 'Doppelt' }))
        .statusCode,
    ).toBe(400);
    expect((await call('DELETE', `/admin/languages/translations/${row.id}`)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/translations/de' })).json()['Welcome back']).toBeUndefined();
    expect((await call('DELETE', `/admin/languages/translations/${row.id}`)).statusCode).toBe(404);
  });

  it('answers the spec messages, and only to admins', async () => {
    const res = await call('POST', '/admin/languages/translations', { code: '', key: '', value: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toMatchObject({
      code: 'Code is required',
      key: 'Key is required',
      value: 'Value is required',
    });
    expect((await call('POST', '/admin/languages/translations', { code: 'zz', key: 'a', value: 'b' })).statusCode).toBe(
      404,
    );
    expect((await call('GET', '/admin/languages', undefined, await signIn(t.app, DEMO.manager))).statusCode).toBe(403);
    expect((await call('GET', '/admin/languages', undefined, null)).statusCode).toBe(401);
  });
});
