import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, DEMO, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, DEMO.admin);
  for (const to of ['a@example.com', 'b@example.com', 'c_d@example.com'])
    await t.ctx.mailer.send({ to, subject: `Hello ${to}`, text: `Body for ${to}` });
});
afterAll(async () => t.close());

const get = (url: string, cookie = admin) => t.app.inject({ method: 'GET', url, headers: { cookie } });

describe('mail outbox', () => {
  it('lists mail newest first, paged and searchable by recipient or subject', async () => {
    const res = await get('/api/admin/mail/api');
    expect(res.statusCode).toBe(200);
    const { data, meta } = res.json();
    expect(meta).toEqual({ total: 3, per_page: 15, page: 1 });
    expect(data.map((m: { to: string }) => m.to)).toEqual(['c_d@example.com', 'b@example.com', 'a@example.com']);
    expect(data[0]).toMatchObject({ subject: 'Hello c_d@example.com', sent_at: null, error: null });
    expect((await get('/api/admin/mail/api?search=B@EXAMPLE')).json().meta.total).toBe(1);
    // "_" is literal in the search, not a one-character wildcard.
    expect((await get('/api/admin/mail/api?search=c_d')).json().meta.total).toBe(1);
    expect((await get('/api/admin/mail/api?search=a_')).json().meta.total).toBe(0);
    expect((await get('/api/admin/mail/api?limit=1&page=3')).json().data[0].to).toBe('a@example.com');
  });

  it('shows one mail and answers 404 for an unknown id', async () => {
    const [first] = (await get('/api/admin/mail/api')).json().data;
    const res = await get(`/api/admin/mail/${first.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(first);
    expect((await get('/api/admin/mail/999999')).statusCode).toBe(404);
  });

  it('is for admins only', async () => {
    const manager = await signIn(t.app, DEMO.manager);
    expect((await get('/api/admin/mail/api', manager)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/mail/api' })).statusCode).toBe(401);
  });
});
