import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { createTestApp, DEMO, newVerifiedCustomer, signIn, type TestApp } from '../../../test/helpers.ts';
import { auditLogs, users } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';

let t: TestApp;
let admin: string;
let adminId: number;
let customer: { id: number; email: string };

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, DEMO.admin);
  [{ id: adminId }] = await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO.admin));
  customer = await newVerifiedCustomer(t, 'audited');
  await writeAudit(t.ctx.db, {
    actorId: adminId,
    targetUserId: customer.id,
    action: 'customer.update',
    before: { city: 'London' },
    after: { city: 'Paris' },
    ip: '10.0.0.1',
  });
  await writeAudit(t.ctx.db, {
    actorId: adminId,
    targetUserId: null,
    action: 'order.void',
    subjectType: 'order',
    subjectId: 4242,
    before: { pro_loss: '12.5' },
    after: null,
  });
  await writeAudit(t.ctx.db, {
    actorId: adminId,
    targetUserId: null,
    action: 'settings.update',
    subjectType: 'settings',
    after: { appName: '=cmd' },
  });
});
afterAll(() => t.close());

const get = (url: string, cookie = admin) => t.app.inject({ method: 'GET', url, headers: { cookie } });

describe('audit log', () => {
  it('lists staff actions newest first with who, on whom or what, before and after, and IP', async () => {
    const res = await get('/api/admin/audit/api');
    expect(res.statusCode).toBe(200);
    const [first, second, third] = res.json().data;
    expect(first).toMatchObject({ action: 'settings.update', subject_type: 'settings', actor: { email: DEMO.admin } });
    expect(second).toMatchObject({
      action: 'order.void',
      subject_type: 'order',
      subject_id: 4242,
      before: { pro_loss: '12.5' },
    });
    expect(third).toMatchObject({
      action: 'customer.update',
      target: { id: customer.id, email: customer.email },
      before: { city: 'London' },
      after: { city: 'Paris' },
      ip: '10.0.0.1',
    });
  });

  it('filters by actor, subject, action and date', async () => {
    const ids = async (q: string) =>
      (await get(`/api/admin/audit/api?${q}`)).json().data.map((r: { action: string }) => r.action);
    expect(await ids(`subject=${encodeURIComponent(customer.email)}`)).toEqual(['customer.update']);
    expect(await ids(`subject=${customer.id}`)).toEqual(['customer.update']);
    expect(await ids('subject=order:4242')).toEqual(['order.void']);
    expect(await ids('subject=settings')).toEqual(['settings.update']);
    expect(await ids('action=order')).toEqual(['order.void']);
    expect(await ids('action=order.void&actor=admin@demo')).toEqual(['order.void']);
    expect(await ids(`actor=${adminId + 100000}`)).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await ids(`from=${today}&to=${today}`)).length).toBeGreaterThanOrEqual(3);
    expect(await ids('to=2000-01-01')).toEqual([]);
    const bad = await get('/api/admin/audit/api?from=2024-02-30');
    expect(bad.statusCode).toBe(400);
    expect((await get('/api/admin/audit/api?from=2024-03-02&to=2024-03-01')).json().message).toBe(
      'From must not be after To',
    );
  });

  it('exports the filtered rows to CSV, formulas neutralised', async () => {
    const res = await get('/api/admin/audit/api?format=csv&subject=settings');
    expect(res.statusCode).toBe(200);
    const rows = parse(res.body, { bom: true, columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      Action: 'settings.update',
      Actor: DEMO.admin,
      Subject: 'settings',
      After: '{"appName":"=cmd"}',
    });
  });

  it('lists the recorded actions for the filter', async () => {
    expect((await get('/api/admin/audit/actions')).json().data).toEqual(
      expect.arrayContaining(['customer.update', 'order.void', 'settings.update']),
    );
  });

  it('is for admins only', async () => {
    expect((await get('/api/admin/audit/api', await signIn(t.app, DEMO.manager))).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/audit/api' })).statusCode).toBe(401);
  });

  it('cannot be changed or deleted, nor can the ledger: the database refuses, whoever asks', async () => {
    const [row] = await t.ctx.db.select({ id: auditLogs.id }).from(auditLogs).limit(1);
    // The database's own words, under the query wrapper's.
    const refusal = (p: Promise<unknown>) =>
      p.then(
        () => 'allowed',
        (err: Error & { cause?: Error }) => String(err.cause?.message ?? err.message),
      );
    expect(
      await refusal(t.ctx.db.update(auditLogs).set({ action: 'rewritten' }).where(eq(auditLogs.id, row.id))),
    ).toMatch(/cannot be changed or deleted/);
    expect(await refusal(t.ctx.db.delete(auditLogs).where(eq(auditLogs.id, row.id)))).toMatch(
      /cannot be changed or deleted/,
    );
    expect(await refusal(t.ctx.db.execute(sql`truncate audit_logs`))).toMatch(/cannot be changed or deleted/);
    // Ledger entries likewise: a correction is a new entry, never an edit.
    expect(await refusal(t.ctx.db.execute(sql`update ledger_entries set amount = amount + 1`))).toMatch(
      /cannot be changed or deleted/,
    );
    expect(await refusal(t.ctx.db.execute(sql`delete from ledger_entries`))).toMatch(/cannot be changed or deleted/);
    // Nor can a user with audit rows be erased underneath them.
    await expect(t.ctx.db.delete(users).where(eq(users.id, customer.id))).rejects.toThrow();
    const [still] = await t.ctx.db.select().from(auditLogs).where(eq(auditLogs.id, row.id));
    expect(still.action).not.toBe('rewritten');
  });
});

describe('server information', () => {
  it('reports the machine, the process, the database and live figures to admins', async () => {
    const res = await get('/api/admin/status/server');
    expect(res.statusCode).toBe(200);
    const info = res.json();
    expect(info.cpuCores).toBeGreaterThan(0);
    expect(info.cpuUsage).toBeGreaterThanOrEqual(0);
    expect(info.cpuUsage).toBeLessThanOrEqual(100);
    expect(info.usedMemPercentage).toBeGreaterThan(0);
    expect(info.totalMemMb).toBeGreaterThan(100);
    expect(info.database.kind).toBe(t.ctx.dbKind);
    expect(info.database.sizeMb).toBeGreaterThan(0);
    expect(info.uptimeSeconds).toBeGreaterThanOrEqual(0);
    expect(info.instances).toEqual({ clustered: false, leader: true });
    expect((await get('/api/admin/status/server', await signIn(t.app, DEMO.manager))).statusCode).toBe(403);
  });
});
