import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { createTestApp, signIn, DEMO, type TestApp } from '../../../test/helpers.ts';
import { auditLogs, authTokens, mailOutbox, users } from '../../db/schema.ts';
import { LINK_WITHHELD } from '../../integrations/mail.ts';
import { LINK_EXPIRED } from './service.ts';

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
    expect(data[0]).toMatchObject({
      subject: 'Hello c_d@example.com',
      sent_at: null,
      error: null,
      link: 'none',
      link_live: false,
    });
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
    expect((await get('/api/admin/mail/delivery', manager)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/mail/api' })).statusCode).toBe(401);
  });

  it('tells the screen that mail is not delivered', async () => {
    expect((await get('/api/admin/mail/delivery')).json()).toEqual({ mode: 'offline' });
  });
});

describe('links in mail without SMTP', () => {
  const secretReads = async (mailId: number) =>
    t.ctx.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'mail.secret_read'), sql`${auditLogs.after}->>'mail_id' = ${String(mailId)}`));
  const userId = async (email: string) =>
    (await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0].id;

  /** Asks for a reset link as anyone may and returns the outbox row and the link's token. */
  async function requestReset(email: string) {
    const res = await t.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email } });
    expect(res.statusCode).toBe(200);
    await t.ctx.jobs.idle();
    const [row] = await t.ctx.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.to, email))
      .orderBy(desc(mailOutbox.id))
      .limit(1);
    const token = row.secret?.match(/\/reset-password\?token=([\w-]+)$/)?.[1];
    expect(token).toBeDefined();
    return { row, token: token! };
  }

  it('keeps the link out of the stored text and the list', async () => {
    const { row, token } = await requestReset(DEMO.affiliate);
    expect(row.text).not.toContain(token);
    expect(row.text).toContain(LINK_WITHHELD);
    expect(row.tokenId).not.toBeNull();
    const list = await get(`/api/admin/mail/api?search=${DEMO.affiliate}`);
    expect(list.body).not.toContain(token);
    expect(list.json().data[0]).toMatchObject({ id: row.id, link: 'withheld', link_live: true });
    expect(await secretReads(row.id)).toHaveLength(0);
  });

  it('shows the live link on the single read and audits every such read', async () => {
    const { row, token } = await requestReset(DEMO.agent);
    const first = await get(`/api/admin/mail/${row.id}`);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ link: 'shown', link_live: true });
    expect(first.json().text).toContain(`/reset-password?token=${token}`);
    expect(first.json().text).not.toContain(LINK_WITHHELD);

    const audits = await secretReads(row.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actorId: await userId(DEMO.admin), targetUserId: await userId(DEMO.agent) });
    expect(audits[0].after).toMatchObject({ mail_id: row.id, kind: 'reset_password' });
    expect(JSON.stringify(audits[0])).not.toContain(token);

    await get(`/api/admin/mail/${row.id}`);
    expect(await secretReads(row.id)).toHaveLength(2);
    // The link still works for whoever it was passed on to, once.
    const reset = await t.app.inject({
      method: 'PUT',
      url: '/api/forgot-password',
      payload: { token, password: 'BrandNew123' },
    });
    expect(reset.statusCode).toBe(200);

    const used = await get(`/api/admin/mail/${row.id}`);
    expect(used.json()).toMatchObject({ link: 'withheld', link_live: false });
    expect(used.body).not.toContain(token);
    expect(used.json().text).toContain(LINK_EXPIRED);
    expect(await secretReads(row.id)).toHaveLength(2);
  });

  it('neither shows nor audits a link that has expired or was replaced by a newer one', async () => {
    const older = await requestReset(DEMO.retention);
    const newer = await requestReset(DEMO.retention);
    const replaced = await get(`/api/admin/mail/${older.row.id}`);
    expect(replaced.json()).toMatchObject({ link: 'withheld', link_live: false });
    expect(replaced.body).not.toContain(older.token);

    await t.ctx.db
      .update(authTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(authTokens.id, newer.row.tokenId!));
    const expired = await get(`/api/admin/mail/${newer.row.id}`);
    expect(expired.json()).toMatchObject({ link: 'withheld', link_live: false });
    expect(expired.body).not.toContain(newer.token);
    expect(expired.json().text).toContain(LINK_EXPIRED);
    expect((await get(`/api/admin/mail/api?search=${DEMO.retention}`)).json().data[0]).toMatchObject({
      link: 'withheld',
      link_live: false,
    });
    expect(await secretReads(older.row.id)).toHaveLength(0);
    expect(await secretReads(newer.row.id)).toHaveLength(0);
  });

  it('lets no one but an admin read a reset link asked for someone else', async () => {
    // A client asks to reset the manager's password, then tries to read the mail that carries the link.
    const { row, token } = await requestReset(DEMO.manager);
    const client = await signIn(t.app, DEMO.client);
    for (const url of [
      '/api/admin/mail/api',
      `/api/admin/mail/${row.id}`,
      `/api/admin/mail/api?search=${DEMO.manager}`,
    ]) {
      const asClient = await get(url, client);
      expect(asClient.statusCode).toBe(403);
      expect(asClient.body).not.toContain(token);
      const anonymous = await t.app.inject({ method: 'GET', url });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.body).not.toContain(token);
    }
    expect(await secretReads(row.id)).toHaveLength(0);
  });
});
