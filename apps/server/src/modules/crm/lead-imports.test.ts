import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, like, sql } from 'drizzle-orm';
import type { LeadImportResponse } from '@platform/domain';
import { createTestApp, multipart, signInDemoRoles, type TestApp } from '../../../test/helpers.ts';
import { leadImports, leads } from '../../db/schema.ts';
import { createJobs } from '../../jobs/queue.ts';
import { jobHandlers } from '../../jobs/handlers.ts';
import { runLeadImport } from './lead-imports.ts';

/** The life of a leads CSV import: who may follow it, and that it imports once whatever the queue does. */
let t: TestApp;
const cookies = new Map<number, string>();
const ids: Record<string, number> = {};
let seq = 0;

beforeAll(async () => {
  t = await createTestApp();
  await signInDemoRoles(t, cookies, ids);
});
afterAll(async () => t.close());

const tag = () => `li${++seq}x${Date.now().toString(36)}`;
const csvOf = (p: string, n: number) =>
  ['firstName,email', ...Array.from({ length: n }, (_, i) => `${p}${i},${p}${i}@example.com`)].join('\n');
const imported = (p: string) =>
  t.ctx.db
    .select()
    .from(leads)
    .where(like(leads.firstName, `${p}%`));
const importRow = async (id: number) => (await t.ctx.db.select().from(leadImports).where(eq(leadImports.id, id)))[0];

const upload = async (role: number, csv: string): Promise<number> => {
  const form = multipart({}, { file: { data: Buffer.from(csv), filename: 'leads.csv', type: 'text/csv' } });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/admin/leads/csv',
    payload: form.payload,
    headers: { ...form.headers, cookie: cookies.get(role)! },
  });
  expect(res.statusCode, res.body).toBe(202);
  return res.json().id;
};
const statusAs = (role: number, id: number | string) =>
  t.app.inject({ method: 'GET', url: `/api/admin/leads/csv/${id}`, headers: { cookie: cookies.get(role)! } });
const finished = (id: number) =>
  expect.poll(async () => (await importRow(id)).status, { timeout: 20_000, interval: 50 }).toMatch(/done|failed/);

/** An import recorded as an upload would record it, but with no job queued: the test runs the job itself. */
async function recordImport(
  p: string,
  n: number,
  extra: Partial<typeof leadImports.$inferInsert> = {},
): Promise<number> {
  const [row] = await t.ctx.db
    .insert(leadImports)
    .values({
      uploadedBy: ids.admin,
      uploaderRole: 1,
      uploaderIp: '127.0.0.1',
      fileName: `${p}.csv`,
      rowCount: n,
      file: gzipSync(csvOf(p, n)),
      ...extra,
    })
    .returning({ id: leadImports.id });
  return row.id;
}

describe('GET /admin/leads/csv/{id}', () => {
  it('tells the uploader, and admins, how the import stands; anyone else gets 404', async () => {
    const p = tag();
    const id = await upload(2, csvOf(p, 3));
    await finished(id);
    const own = await statusAs(2, id);
    expect(own.statusCode).toBe(200);
    const body = own.json() as LeadImportResponse;
    expect(body).toMatchObject({
      id,
      status: 'done',
      fileName: 'leads.csv',
      rowCount: 3,
      error: null,
      report: { accepted: 3, total: 3 },
    });
    expect(Date.parse(body.createdAt)).toBeLessThanOrEqual(Date.parse(body.finishedAt!));
    expect((await statusAs(1, id)).json()).toEqual(body);
    // Another uploader (an affiliate, who may upload too) is told it does not exist, as is any unknown id.
    for (const [role, importId] of [
      [4, id],
      [2, 2_000_000_000],
    ] as const) {
      const res = await statusAs(role, importId);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Import not found.');
    }
    for (const role of [3, 5, 6]) expect((await statusAs(role, id)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/api/admin/leads/csv/${id}` })).statusCode).toBe(401);
    expect((await statusAs(1, 'abc')).statusCode).toBe(400);
  });
});

describe('the import job', () => {
  it('imports once when its job is sent twice and run again after the import committed', async () => {
    const p = tag();
    const id = await upload(1, csvOf(p, 20));
    await t.ctx.jobs.send('crm.import-leads', { importId: id });
    await finished(id);
    await t.ctx.jobs.idle();
    const done = await importRow(id);
    // A retry after the commit (the worker died before the queue heard it finished) finds it done.
    await runLeadImport(t.ctx, id);
    expect(await imported(p)).toHaveLength(20);
    expect(await importRow(id)).toEqual(done);
    expect(done.report).toMatchObject({ accepted: 20, duplicateCount: 0 });
  });

  it('imports once when two workers run the same import at the same time', async () => {
    const p = tag();
    const id = await recordImport(p, 30);
    await Promise.all([runLeadImport(t.ctx, id), runLeadImport(t.ctx, id)]);
    expect(await imported(p)).toHaveLength(30);
    expect(await importRow(id)).toMatchObject({
      status: 'done',
      file: null,
      report: { accepted: 30, duplicateCount: 0 },
    });
  });

  it('a run that fails midway commits nothing, and the queue’s retry imports the file once', async () => {
    const p = tag();
    // The first insert of this file's leads fails (as a crash or a lost connection would), later ones pass.
    const run = async (...statements: string[]) => {
      for (const statement of statements) await t.ctx.db.execute(sql.raw(statement));
    };
    await run(
      `create sequence ${p}_runs`,
      `create function ${p}_fail_once() returns trigger language plpgsql as $$
       begin
         if new.first_name like '${p}%' and nextval('${p}_runs') = 1 then raise exception 'connection lost'; end if;
         return new;
       end $$`,
      `create trigger ${p}_fail_once before insert on leads for each row execute function ${p}_fail_once()`,
    );
    try {
      const id = await upload(1, csvOf(p, 40));
      await finished(id);
      expect(await importRow(id)).toMatchObject({
        status: 'done',
        attempts: 2,
        report: { accepted: 40, duplicateCount: 0 },
      });
      expect(await imported(p)).toHaveLength(40);
    } finally {
      await run(`drop trigger ${p}_fail_once on leads`, `drop function ${p}_fail_once()`, `drop sequence ${p}_runs`);
    }
  });

  it('fails an import whose file it cannot import, with the reason for the uploader', async () => {
    const p = tag();
    const id = await recordImport(p, 1, { file: gzipSync(`email\n${p}@example.com\n`) });
    await runLeadImport(t.ctx, id);
    const res = (await statusAs(1, id)).json() as LeadImportResponse;
    expect(res).toMatchObject({ status: 'failed', report: null });
    expect(res.error).toMatch(/firstName column/);
    expect(res.finishedAt).not.toBeNull();
    expect(await importRow(id)).toMatchObject({ file: null });
  });

  it('gives up on an import that crashed its worker on every run, instead of leaving it running', async () => {
    const p = tag();
    const id = await recordImport(p, 5, { status: 'running', attempts: 3 });
    await runLeadImport(t.ctx, id);
    expect(await importRow(id)).toMatchObject({
      status: 'failed',
      error: 'The import could not be finished. Please upload the file again.',
      file: null,
    });
    expect(await imported(p)).toHaveLength(0);
    // A failed import stays failed whatever runs later.
    await runLeadImport(t.ctx, id);
    expect((await importRow(id)).status).toBe('failed');
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('the import job with two instances’ workers (PostgreSQL)', () => {
  it('imports every file once, and files with the same leads still find each other’s duplicates', async () => {
    // A second instance's workers on the same database, beside this app's own.
    const other = createJobs(t.database.queue, t.ctx.db, { fast: true });
    // It polls while this app's worker is told of each upload, so it takes some of the files (about a third in runs so far).
    await other.start(jobHandlers(t.ctx));
    try {
      const p = tag();
      const shared = Array.from({ length: 20 }, (_, i) => `${p}s${i},${p}s${i}@example.com`);
      const files = Array.from({ length: 6 }, (_, f) =>
        [
          'firstName,email',
          ...shared,
          ...Array.from({ length: 5 }, (_, i) => `${p}f${f}u${i},${p}f${f}u${i}@example.com`),
        ].join('\n'),
      );
      const ids = await Promise.all(files.map((csv) => upload(1, csv)));
      for (const id of ids) await finished(id);
      const reports = await Promise.all(ids.map(async (id) => (await importRow(id)).report!));
      expect(reports.reduce((n, r) => n + r.accepted, 0)).toBe(20 + 6 * 5);
      expect(reports.map((r) => r.duplicateCount).sort()).toEqual([0, 20, 20, 20, 20, 20]);
      expect(await imported(p)).toHaveLength(20 + 6 * 5);
    } finally {
      await other.stop();
    }
  });
});
