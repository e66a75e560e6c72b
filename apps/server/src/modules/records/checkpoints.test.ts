import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, DEMO, signIn, type TestApp } from '../../../test/helpers.ts';
import { recordsCheckpoints } from '../../db/schema.ts';
import { JOB_NAMES } from '../../jobs/queue.ts';
import { writeAudit } from '../../lib/audit.ts';
import { storeDailyCheckpoint } from './checkpoints.ts';
import { verifyCheckpoint } from './verify.ts';

let t: TestApp;
let admin: string;

const KEY = 'a-signing-key-of-the-records-0123';
const get = (url: string, cookie = admin) => t.app.inject({ method: 'GET', url: `/api${url}`, headers: { cookie } });
const stored = () => t.ctx.db.select().from(recordsCheckpoints).orderBy(recordsCheckpoints.day);

beforeAll(async () => {
  t = await createTestApp({ RECORDS_SIGNING_KEY: KEY });
  admin = await signIn(t.app, DEMO.admin);
});
afterAll(() => t.close());

describe('daily checkpoint of the chain heads', () => {
  it('stores one signed checkpoint a day, whichever of two instances runs the job first', async () => {
    expect(JOB_NAMES).toContain('records.checkpoint');
    const day1 = new Date('2026-03-01T00:03:00Z');
    // Two instances at the same tick: exactly one row, and exactly one of them says it stored it.
    const both = await Promise.all([
      storeDailyCheckpoint(t.ctx.db, KEY, day1),
      storeDailyCheckpoint(t.ctx.db, KEY, day1),
    ]);
    expect(both.filter(Boolean)).toHaveLength(1);
    // A later run (the next hour, a retry) the same day stores nothing.
    expect(await storeDailyCheckpoint(t.ctx.db, KEY, new Date('2026-03-01T23:03:00Z'))).toBe(false);
    await writeAudit(t.ctx.db, { actorId: null, targetUserId: null, action: 'test.between', ip: null });
    expect(await storeDailyCheckpoint(t.ctx.db, undefined, new Date('2026-03-02T00:03:00Z'))).toBe(true);

    const rows = await stored();
    expect(rows.map((r) => r.day)).toEqual(['2026-03-01', '2026-03-02']);
    expect(rows.map((r) => r.signed)).toEqual([true, false]);
    expect(rows[1].auditSeq).toBe(rows[0].auditSeq + 1);
    expect(rows[0].wallets).toBeGreaterThan(0);
    // The stored file checks out against the chains and the key.
    const first = (await get(`/admin/records/checkpoints/${rows[0].id}`)).json();
    expect(await verifyCheckpoint(t.ctx.db, KEY, first)).toEqual({ ok: true, signed: true, changed: [] });

    // The day is the key: a second row for it is refused by the database, and stored rows cannot change.
    await expect(
      t.ctx.db.insert(recordsCheckpoints).values({ ...rows[0], id: undefined, createdAt: undefined }),
    ).rejects.toThrow();
    await expect(t.ctx.db.execute(sql`UPDATE records_checkpoints SET signed = false`)).rejects.toThrow();
    await expect(t.ctx.db.execute(sql`DELETE FROM records_checkpoints`)).rejects.toThrow();
    expect(await stored()).toHaveLength(2);
  });

  it('lists them newest first and downloads each as the exported JSON file, for admins only', async () => {
    const list = await get('/admin/records/checkpoints');
    expect(list.statusCode).toBe(200);
    const { data, meta } = list.json();
    expect(meta).toEqual({ total: 2, per_page: 15, page: 1 });
    expect(data.map((c: { day: string }) => c.day)).toEqual(['2026-03-02', '2026-03-01']);
    expect(data[1]).toMatchObject({ signed: true, audit_seq: expect.any(Number), wallets: expect.any(Number) });
    expect((await get('/admin/records/checkpoints?limit=1&page=2')).json().data[0].day).toBe('2026-03-01');

    const file = await get(`/admin/records/checkpoints/${data[1].id}`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toMatch(/attachment; filename="records-checkpoint-2026-03-01\.json"/);
    const body = file.json();
    expect(Object.keys(body).sort()).toEqual(['at', 'audit', 'ledger', 'signature']);
    expect(body.signature).toMatch(/^[0-9a-f]{64}$/);
    // Checking the file again through the API, as an auditor would.
    const checked = await t.app.inject({
      method: 'POST',
      url: '/api/admin/records/checkpoint/verify',
      headers: { cookie: admin },
      payload: body,
    });
    expect(checked.json()).toEqual({ ok: true, signed: true, changed: [] });

    expect((await get('/admin/records/checkpoints/999999')).statusCode).toBe(404);
    for (const bad of [
      '/admin/records/checkpoints/abc',
      '/admin/records/checkpoints?limit=1000',
      '/admin/records/checkpoints?page=0',
    ])
      expect((await get(bad)).statusCode).toBe(400);
    const manager = await signIn(t.app, DEMO.manager);
    const client = await signIn(t.app, DEMO.client);
    for (const cookie of [manager, client]) {
      expect((await get('/admin/records/checkpoints', cookie)).statusCode).toBe(403);
      expect((await get(`/admin/records/checkpoints/${data[0].id}`, cookie)).statusCode).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/records/checkpoints' })).statusCode).toBe(401);
  });
});
