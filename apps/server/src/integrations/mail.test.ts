import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { createTestApp, signIn, DEMO, type TestApp } from '../../test/helpers.ts';
import { auditLogs, mailOutbox } from '../db/schema.ts';
import { LINK_EMAILED, MAYBE_SENT } from './mail.ts';
import { deliverResetLink } from '../modules/auth/service.ts';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

const received: Received[] = [];
/** While set, the relay answers MAIL FROM only once it settles (a send held after connecting, before its text). */
let holdMailFrom: Promise<void> | null = null;
let atMailFrom: () => void = () => undefined;
const smtp = new SMTPServer({
  // A plain local relay: no TLS offer, no login, everything accepted.
  disabledCommands: ['STARTTLS', 'AUTH'],
  authOptional: true,
  logger: false,
  onMailFrom(_address, _session, callback) {
    const hold = holdMailFrom;
    if (!hold) return callback();
    atMailFrom();
    void hold.then(() => callback());
  },
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      received.push({
        from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
        to: session.envelope.rcptTo.map((r) => r.address),
        raw: Buffer.concat(chunks).toString('utf8'),
      });
      callback();
    });
  },
});

let t: TestApp;
beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  t = await createTestApp({
    SMTP_URL: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    MAIL_FROM: 'Platform <no-reply@platform.test>',
  });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

/** The text body of a raw message, undoing quoted-printable soft breaks and escapes. */
function bodyText(raw: string): string {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const body = rest.join('\n\n');
  if (/content-transfer-encoding:\s*quoted-printable/i.test(head))
    return body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  if (/content-transfer-encoding:\s*base64/i.test(head))
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

const lastOutbox = async (to: string) =>
  (await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(desc(mailOutbox.id)).limit(1))[0];

describe('a mail job retried after a crash', () => {
  // Before the delivery tests below, which count every mail received from their start.
  afterAll(() => {
    received.length = 0;
  });
  const toClient = () => received.filter((m) => m.to.includes(DEMO.client)).length;

  it('mails once: a retry of a job whose mail went out sends nothing, and the mailed link still works', async () => {
    const before = toClient();
    await deliverResetLink(t.ctx, DEMO.client, 'job-retried-after-send');
    await deliverResetLink(t.ctx, DEMO.client, 'job-retried-after-send');
    expect(toClient() - before).toBe(1);
    const rows = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.jobId, 'job-retried-after-send'));
    expect(rows).toHaveLength(1);
    expect(rows[0].sentAt).not.toBeNull();
    // The retry made no new link, which would have voided the one in the mail.
    const token = /reset-password\?token=([\w-]+)/.exec(
      bodyText(received.filter((m) => m.to.includes(DEMO.client)).at(-1)!.raw),
    )?.[1];
    expect(token).toBeTruthy();
    const reset = await t.app.inject({
      method: 'PUT',
      url: '/api/forgot-password',
      payload: { token, password: 'Demo12345!' },
    });
    expect(reset.statusCode).toBe(200);
  });

  it('does not mail again when the attempt before stopped while SMTP had the mail', async () => {
    const before = toClient();
    // What a crash between handing the text to SMTP and recording it sent leaves; and such a row written before
    // hand-overs were recorded (no attempt).
    for (const [jobId, run] of [
      ['job-crashed-mid-send', { attempt: 'run-1', handedAt: new Date() }],
      ['job-crashed-mid-send-old', {}],
    ] as const) {
      await t.ctx.db.insert(mailOutbox).values({ to: DEMO.client, subject: 'Reset', text: 'x', jobId, ...run });
      await deliverResetLink(t.ctx, DEMO.client, jobId);
      const [row] = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.jobId, jobId));
      expect(row.error).toBe(MAYBE_SENT);
    }
    expect(toClient()).toBe(before);
  });

  it('mails, in the same outbox row, when the attempt before stopped while still connecting to SMTP', async () => {
    const before = toClient();
    // A crash before SMTP took DATA: the row of a run that never began to hand the text over.
    await t.ctx.db
      .insert(mailOutbox)
      .values({ to: DEMO.client, subject: 'Reset', text: 'x', jobId: 'job-crashed-connecting', attempt: 'run-1' });
    await deliverResetLink(t.ctx, DEMO.client, 'job-crashed-connecting');
    await deliverResetLink(t.ctx, DEMO.client, 'job-crashed-connecting');
    expect(toClient() - before).toBe(1);
    const rows = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.jobId, 'job-crashed-connecting'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ error: null });
    expect(rows[0].sentAt).not.toBeNull();
  });

  it('a run taken over while connecting sends nothing; the run that took it over sends once', async () => {
    const before = toClient();
    let release: () => void = () => undefined;
    holdMailFrom = new Promise<void>((r) => (release = r));
    const reached = new Promise<void>((r) => (atMailFrom = r));
    const mail = (subject: string) => ({ to: DEMO.client, subject, text: subject });
    // A slow run (its job expired meanwhile) is connected, before its text.
    const slow = t.ctx.mailer.send(mail('Slow run'), undefined, 'job-taken-over');
    await reached;
    holdMailFrom = null;
    // The job's retry takes the mail over and sends it.
    expect(await t.ctx.mailer.shouldSend('job-taken-over')).toBe(true);
    expect(await t.ctx.mailer.send(mail('Retry'), undefined, 'job-taken-over')).toMatchObject({ delivered: true });
    release();
    // The slow run finds the mail taken when SMTP asks for its text, and ends without sending it.
    expect(await slow).toMatchObject({ delivered: true });
    const mine = received.filter((m) => m.to.includes(DEMO.client)).slice(before);
    expect(mine.map((m) => /^Subject: (.*)$/m.exec(m.raw)?.[1]?.trim())).toEqual(['Retry']);
    const rows = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.jobId, 'job-taken-over'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ subject: 'Retry', error: null });
    expect(rows[0].sentAt).not.toBeNull();
  });

  it('mails again, in the same outbox row, when SMTP refused the attempt before', async () => {
    const before = toClient();
    await t.ctx.db
      .insert(mailOutbox)
      .values({ to: DEMO.client, subject: 'Reset', text: 'x', jobId: 'job-refused', error: '451 try later' });
    await deliverResetLink(t.ctx, DEMO.client, 'job-refused');
    expect(toClient() - before).toBe(1);
    const rows = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.jobId, 'job-refused'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ error: null });
    expect(rows[0].sentAt).not.toBeNull();
  });
});

describe('SMTP delivery', () => {
  it('delivers the password-reset mail with its link, marks the outbox row sent and keeps no link', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email: DEMO.client } });
    expect(res.statusCode).toBe(200);
    await t.ctx.jobs.idle();
    expect(received).toHaveLength(1);
    const mail = received[0];
    expect(mail.to).toEqual([DEMO.client]);
    expect(mail.from).toBe('no-reply@platform.test');
    const link = bodyText(mail.raw).match(/https?:\/\/\S+\/reset-password\?token=([\w-]+)/);
    expect(link).not.toBeNull();
    const token = link![1];

    const row = await lastOutbox(DEMO.client);
    expect(row.sentAt).toBeInstanceOf(Date);
    expect(row.error).toBeNull();
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row.text).toContain(LINK_EMAILED);
    expect(row.secret).toBeNull();

    // Staff see that the mail had a link, never the link.
    const admin = await signIn(t.app, DEMO.admin);
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie: admin } });
    const list = await get('/api/admin/mail/api');
    const one = await get(`/api/admin/mail/${row.id}`);
    for (const res of [list, one]) {
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(token);
    }
    expect(one.json()).toMatchObject({ link: 'emailed', link_live: true });
    expect(one.json().text).toContain(LINK_EMAILED);
    expect(list.json().data[0]).toMatchObject({ id: row.id, link: 'emailed', link_live: true });
    expect((await get('/api/admin/mail/delivery')).json()).toEqual({ mode: 'smtp' });
    expect(await t.ctx.db.select().from(auditLogs).where(eq(auditLogs.action, 'mail.secret_read'))).toHaveLength(0);

    // The delivered link is the working one, once.
    const reset = await t.app.inject({
      method: 'PUT',
      url: '/api/forgot-password',
      payload: { token, password: 'BrandNew123' },
    });
    expect(reset.statusCode).toBe(200);
    expect((await get(`/api/admin/mail/${row.id}`)).json()).toMatchObject({ link: 'emailed', link_live: false });
  });

  it('records the delivery error and still answers 200 when the SMTP server is down', async () => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    const res = await t.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email: DEMO.manager } });
    expect(res.statusCode).toBe(200);
    await t.ctx.jobs.idle();
    const row = await lastOutbox(DEMO.manager);
    expect(row.sentAt).toBeNull();
    expect(row.error).toMatch(/ECONNREFUSED|connect/i);
    // The mail was never delivered and its link is not kept: asking again is the way on.
    expect(row.text).toContain(LINK_EMAILED);
    expect(row.text).not.toMatch(/token=/);
    expect(row.secret).toBeNull();
    expect(received).toHaveLength(1);
  });
});
